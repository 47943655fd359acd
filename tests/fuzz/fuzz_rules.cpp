// libFuzzer target: the reader of Weft's rule language.
#include "FuzzInput.h"
#include "RuleLanguage.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace weft::adapt;
    const RuleFile file = parseRules(weft::fuzz::input(data, size), QStringLiteral("fuzz.rules"));
    if (!file.ok())
        return 0;
    QByteArray printed;
    for (const Rule &rule : file.rules)
        printed += ruleToText(rule).toUtf8() + '\n';
    const RuleFile again = parseRules(printed, QStringLiteral("rewritten.rules"));
    if (!again.ok())
        weft::fuzz::broken("a rules file Weft read, written back, is refused by Weft's reader");
    if (again.rules.size() != file.rules.size())
        weft::fuzz::broken("a rules file written and read back has another number of rules");
    for (std::size_t i = 0; i < file.rules.size(); ++i)
        if (!(again.rules[i] == file.rules[i]))
            weft::fuzz::broken("a rule written and read back is another rule");
    return 0;
}
