#pragma once
// The local InfiniBand adapters and their ports as libibumad lists them, for choosing the one
// Weft reaches the fabric through. Ports are in number order; `active` is PortInfo:PortState
// Active (4).

#include "Fabric.h"

#include <QString>

#include <vector>

namespace weft {

struct LocalAdapterPort
{
    int number = 0;
    bool active = false;
    Lid lid = 0;
};

struct LocalAdapter
{
    QString name;
    std::vector<LocalAdapterPort> ports;
};

}  // namespace weft
