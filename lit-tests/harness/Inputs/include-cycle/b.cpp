#include "b.h"
#include "a.h"
#include "c.h"
int b() { return 0; }
