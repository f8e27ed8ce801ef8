#include "seqlabel.h"
