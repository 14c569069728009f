// a includes b's header; b.cpp includes a's: a cycle of two components.
#include "b.h"
