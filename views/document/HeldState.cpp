#include "HeldState.h"
