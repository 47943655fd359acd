#include "Identifiers.h"

namespace weft {

QString guidText(Guid guid)
{
    return QLatin1String("0x") + guidDigits(guid);
}

QString guidDigits(Guid guid)
{
    return QStringLiteral("%1").arg(guid, 16, 16, QLatin1Char('0'));
}

QString pkeyText(std::uint16_t pkey)
{
    return QStringLiteral("0x%1").arg(pkey, 4, 16, QLatin1Char('0'));
}

}  // namespace weft
