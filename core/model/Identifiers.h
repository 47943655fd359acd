#pragma once
// How GUIDs and P_Keys are written everywhere Weft shows or stores them: lower-case hex padded
// to the full width (16 digits for a GUID, 4 for a P_Key), as ibnetdiscover, OpenSM's
// partitions.conf and LFT dumps print them. One spelling, so that text written by one part of
// Weft (a report, a project file, a tooltip) is found by another (a search box, a reader).

#include <QString>

#include <cstdint>

namespace weft {

using Guid = std::uint64_t;

// "0x0002c90200400a2c"
QString guidText(Guid guid);
// "0002c90200400a2c": the digits alone, for node ids ("S-0002c90200400a2c") and GUID searches.
QString guidDigits(Guid guid);
// "0x8001"
QString pkeyText(std::uint16_t pkey);

}  // namespace weft
