// c is outside the cycle: it includes nothing of ours.
#include <vector>
