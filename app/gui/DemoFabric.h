#pragma once
// The built-in demo fabric: a generated two-level fat-tree with a few tenants already assigned
// to partitions, so that a new user sees something meaningful at first start.

#include "Fabric.h"
#include "Result.h"
#include "Tenancy.h"

namespace weft {

struct DemoFabric
{
    Fabric fabric;
    Tenancy tenancy;
    QString title;  // shown in the window title, e.g. "Demo fabric (2-level fat-tree, 72 hosts)"
};

Result<DemoFabric> makeDemoFabric();

}  // namespace weft
