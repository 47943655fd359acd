#include "RuleLanguage.h"

#include <QLocale>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <string_view>

namespace weft::adapt {

namespace {

// Keyword tables: the one place each spelling lives, for the parser and the printer alike.
template <class E, std::size_t N>
using Names = std::array<std::pair<E, const char *>, N>;

constexpr Names<Aggregate, 5> kAggregates{{{Aggregate::Avg, "avg"}, {Aggregate::Max, "max"}, {Aggregate::Min, "min"}, {Aggregate::P95, "p95"}, {Aggregate::Sum, "sum"}}};
constexpr Names<ScopeKind, 5> kScopes{{{ScopeKind::Node, "node"}, {ScopeKind::Link, "link"}, {ScopeKind::Tenant, "tenant"}, {ScopeKind::Partition, "partition"}, {ScopeKind::Fabric, "fabric"}}};
constexpr Names<MetricField, 6> kFields{{{MetricField::RxGbps, "rx_gbps"}, {MetricField::TxGbps, "tx_gbps"}, {MetricField::Util, "util"}, {MetricField::XmitWaitRate, "xmit_wait_rate"}, {MetricField::Errors, "errors"}, {MetricField::Weight, "weight"}}};
constexpr Names<Comparison, 6> kComparisons{{{Comparison::LessEqual, "<="}, {Comparison::GreaterEqual, ">="}, {Comparison::Equal, "=="}, {Comparison::NotEqual, "!="}, {Comparison::Less, "<"}, {Comparison::Greater, ">"}}};
constexpr Names<RuleEvent, 6> kEvents{{{RuleEvent::TopologyChange, "topology_change"}, {RuleEvent::LinkDown, "link_down"}, {RuleEvent::NodeAdded, "node_added"}, {RuleEvent::NodeRemoved, "node_removed"}, {RuleEvent::VmMigrated, "vm_migrated"}, {RuleEvent::TenantChanged, "tenant_changed"}}};
constexpr Names<RuleMode, 3> kModes{{{RuleMode::Auto, "auto"}, {RuleMode::Approve, "approve"}, {RuleMode::DryRun, "dry-run"}}};
constexpr Names<RerouteEngine, 5> kEngines{{{RerouteEngine::Ftree, "ftree"}, {RerouteEngine::Wftree, "wftree"}, {RerouteEngine::Pftree, "pftree"}, {RerouteEngine::Wpftree, "wpftree"}, {RerouteEngine::Vswitch, "vswitch"}}};
constexpr Names<RerouteMethod, 3> kMethods{{{RerouteMethod::SlimUpdate, "slimupdate"}, {RerouteMethod::Metabase, "metabase"}, {RerouteMethod::Full, "full"}}};

template <class E, std::size_t N>
QString nameOf(const Names<E, N> &names, E value)
{
    for (const auto &[v, name] : names)
        if (v == value)
            return QString::fromLatin1(name);
    return {};
}

template <class E, std::size_t N>
std::optional<E> lookup(const Names<E, N> &names, const QString &text)
{
    for (const auto &[v, name] : names)
        if (text == QLatin1String(name))
            return v;
    return std::nullopt;
}

template <class E, std::size_t N>
QString alternatives(const Names<E, N> &names)
{
    QStringList list;
    for (const auto &entry : names)
        list << QString::fromLatin1(entry.second);
    return list.join(QStringLiteral("|"));
}

QString numberText(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);  // the shortest text that reads back as v
}

QString quoted(const QString &s)
{
    QString escaped = s;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

// ---- tokens ----

struct Token
{
    // clang-format off
    enum class Kind { Word, Number, String, Symbol, End };
    // clang-format on
    Kind kind = Kind::End;
    QString text;
    int line = 1;
    int column = 1;
};

struct SyntaxFailure
{
    int line, column;
    QString message;
};

bool isWordStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isWordChar(char c)
{
    return isWordStart(c) || isDigit(c);
}

// The longest word or number, and the longest string, a rule file may hold. Anything longer is
// a damaged or hostile file: it is refused, and messages never echo more than a prefix of it.
constexpr std::size_t kMaxWord = 256;
constexpr std::size_t kMaxString = 4096;

// A piece of the file as a message shows it: control characters as \xNN, at most 40 characters.
QString shownText(std::string_view bytes)
{
    constexpr std::size_t kShown = 40;
    QString out;
    std::size_t k = 0;
    for (; k < bytes.size() && out.size() < qsizetype(kShown); ++k) {
        const auto c = static_cast<unsigned char>(bytes[k]);
        if (c < 0x20 || c == 0x7f)
            out += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
        else if (c < 0x80)
            out += QLatin1Char(char(c));
        else {
            std::size_t width = 1;
            while (k + width < bytes.size() && (static_cast<unsigned char>(bytes[k + width]) & 0xC0) == 0x80 && width < 4)
                ++width;
            out += QString::fromUtf8(bytes.data() + k, qsizetype(width));
            k += width - 1;
        }
    }
    if (k < bytes.size())
        out += QStringLiteral("...");
    return out;
}

QString describe(const Token &t)
{
    const QByteArray bytes = t.text.toUtf8();
    const QString shown = shownText(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    switch (t.kind) {
    case Token::Kind::End: return QStringLiteral("the end of the file");
    case Token::Kind::String: return QStringLiteral("the string \"%1\"").arg(shown);
    default: return QStringLiteral("'%1'").arg(shown);
    }
}

std::vector<Token> tokenize(std::string_view s)
{
    std::vector<Token> tokens;
    std::size_t i = 0;
    int line = 1, column = 1;
    auto advance = [&](std::size_t n) {
        for (std::size_t k = 0; k < n && i < s.size(); ++k, ++i) {
            if (s[i] == '\n') {
                ++line;
                column = 1;
            } else if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
                ++column;  // a column is a character, not a byte of one
            }
        }
    };
    auto at = [&](std::size_t k) { return k < s.size() ? s[k] : '\0'; };
    if (s.substr(0, 3) == "\xEF\xBB\xBF")
        i = 3;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '#') {
            while (i < s.size() && s[i] != '\n')
                advance(1);
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            advance(1);
            continue;
        }
        Token t;
        t.line = line;
        t.column = column;
        if (isWordStart(c)) {
            t.kind = Token::Kind::Word;
            std::size_t j = i;
            while (isWordChar(at(j)) || (at(j) == '-' && isWordStart(at(j + 1))))
                ++j;
            if (j - i > kMaxWord)
                throw SyntaxFailure{t.line, t.column, QStringLiteral("a word of %1 characters ('%2'); the longest a rule file allows is %3").arg(j - i).arg(shownText(s.substr(i, j - i))).arg(kMaxWord)};
            t.text = QString::fromUtf8(s.data() + i, qsizetype(j - i));
            advance(j - i);
        } else if (isDigit(c)) {
            // Numbers, durations (2h30m) and times (22:00) alike; the parser reads the text.
            t.kind = Token::Kind::Number;
            std::size_t j = i;
            // An exponent's sign (1e+20) belongs to the number.
            auto exponentSign = [&](std::size_t k) { return (at(k) == '+' || at(k) == '-') && (at(k - 1) == 'e' || at(k - 1) == 'E') && isDigit(at(k + 1)); };
            while (isWordChar(at(j)) || ((at(j) == '.' || at(j) == ':') && isDigit(at(j + 1))) || exponentSign(j))
                ++j;
            if (j - i > kMaxWord)
                throw SyntaxFailure{t.line, t.column, QStringLiteral("a number of %1 characters ('%2'); the longest a rule file allows is %3").arg(j - i).arg(shownText(s.substr(i, j - i))).arg(kMaxWord)};
            t.text = QString::fromUtf8(s.data() + i, qsizetype(j - i));
            advance(j - i);
        } else if (c == '"') {
            t.kind = Token::Kind::String;
            std::string value;
            std::size_t j = i + 1;
            for (;; ++j) {
                if (j >= s.size() || s[j] == '\n')
                    throw SyntaxFailure{t.line, t.column, QStringLiteral("unterminated string: expected a closing '\"' on the same line")};
                if (s[j] == '"')
                    break;
                if (static_cast<unsigned char>(s[j]) < 0x20 && s[j] != '\t') {
                    advance(j - i);  // the message points at the character itself
                    throw SyntaxFailure{line, column, QStringLiteral("control character %1 in a string").arg(shownText(s.substr(j, 1)))};
                }
                if (j - i > kMaxString)
                    throw SyntaxFailure{t.line, t.column, QStringLiteral("a string longer than %1 characters (\"%2\"); the longest a rule file allows is %1").arg(kMaxString).arg(shownText(s.substr(i + 1, j - i)))};
                if (s[j] == '\\' && (at(j + 1) == '"' || at(j + 1) == '\\'))
                    ++j;
                value += s[j];
            }
            t.text = QString::fromStdString(value);
            advance(j + 1 - i);
        } else {
            t.kind = Token::Kind::Symbol;
            static constexpr std::string_view kTwo[] = {"<=", ">=", "==", "!=", ".."};
            std::size_t n = 0;
            for (std::string_view two : kTwo)
                if (s.substr(i, 2) == two)
                    n = 2;
            if (!n && std::string_view("()[],.=<>-").find(c) != std::string_view::npos)
                n = 1;
            if (!n) {
                std::size_t width = 1;  // the whole of a UTF-8 character, for the message
                while (i + width < s.size() && (static_cast<unsigned char>(s[i + width]) & 0xC0) == 0x80 && width < 4)
                    ++width;
                throw SyntaxFailure{line, column, QStringLiteral("unexpected character '%1'").arg(shownText(s.substr(i, width)))};
            }
            t.text = QString::fromUtf8(s.data() + i, qsizetype(n));
            advance(n);
        }
        tokens.push_back(std::move(t));
    }
    Token end;
    end.line = line;
    end.column = column;
    tokens.push_back(end);
    return tokens;
}

// ---- parser ----

class Parser
{
public:
    explicit Parser(std::vector<Token> tokens)
        : m_tokens(std::move(tokens)) {}

    std::vector<Rule> rules()
    {
        std::vector<Rule> rules;
        std::map<QString, int> firstLine;
        while (peek().kind != Token::Kind::End) {
            const Token &start = expectWord(QStringLiteral("rule"));
            Rule rule;
            rule.line = start.line;
            const Token &name = peek();
            if (name.kind != Token::Kind::Word)
                fail(name, QStringLiteral("expected a rule name, found %1").arg(describe(name)));
            ++m_pos;
            if (const auto it = firstLine.find(name.text); it != firstLine.end())
                fail(name, QStringLiteral("duplicate rule name '%1' (first defined on line %2)").arg(name.text).arg(it->second));
            firstLine.emplace(name.text, name.line);
            rule.name = name.text;
            parseRuleBody(rule);
            rules.push_back(std::move(rule));
        }
        return rules;
    }

private:
    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    int m_depth = 0;  // of `not` and parentheses: a hostile file must not exhaust the stack
    static constexpr int kMaxDepth = 64;

    const Token &peek(std::size_t ahead = 0) const { return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)]; }
    bool isWord(const char *w, std::size_t ahead = 0) const { return peek(ahead).kind == Token::Kind::Word && peek(ahead).text == QLatin1String(w); }
    bool isSymbol(const char *s) const { return peek().kind == Token::Kind::Symbol && peek().text == QLatin1String(s); }

    [[noreturn]] static void fail(const Token &at, const QString &message) { throw SyntaxFailure{at.line, at.column, message}; }

    const Token &expectWord(const QString &word)
    {
        const Token &t = peek();
        if (t.kind != Token::Kind::Word || t.text != word)
            fail(t, QStringLiteral("expected '%1', found %2").arg(word, describe(t)));
        ++m_pos;
        return t;
    }

    void expectSymbol(const char *symbol, const QString &context)
    {
        const Token &t = peek();
        if (t.kind != Token::Kind::Symbol || t.text != QLatin1String(symbol))
            fail(t, QStringLiteral("expected '%1' %2, found %3").arg(QLatin1String(symbol), context, describe(t)));
        ++m_pos;
    }

    const Token &word(const QString &what)
    {
        const Token &t = peek();
        if (t.kind != Token::Kind::Word)
            fail(t, QStringLiteral("expected %1, found %2").arg(what, describe(t)));
        ++m_pos;
        return t;
    }

    template <class E, std::size_t N>
    E keyword(const Names<E, N> &names, const QString &what)
    {
        const Token &t = peek();
        const std::optional<E> v = t.kind == Token::Kind::Word ? lookup(names, t.text) : std::nullopt;
        if (!v && t.kind == Token::Kind::Word)
            fail(t, QStringLiteral("unknown %1 %2: expected %3").arg(what, describe(t), alternatives(names)));
        if (!v)
            fail(t, QStringLiteral("expected %1 (%2), found %3").arg(what, alternatives(names), describe(t)));
        ++m_pos;
        return *v;
    }

    std::int64_t duration()
    {
        const Token &t = peek();
        static const std::map<QChar, std::int64_t> kUnits = {{u's', 1}, {u'm', 60}, {u'h', 3600}, {u'd', 86400}};
        auto bad = [&] { fail(t, QStringLiteral("bad duration %1: expected a number and a unit, as 30s, 5m, 1h or 2h30m").arg(describe(t))); };
        if (t.kind != Token::Kind::Number)
            bad();
        std::int64_t total = 0, lastUnit = std::numeric_limits<std::int64_t>::max();
        qsizetype i = 0;
        const QString &s = t.text;
        while (i < s.size()) {
            qsizetype j = i;
            while (j < s.size() && s[j].isDigit())
                ++j;
            if (j == i || j - i > 9 || j >= s.size())
                bad();
            const auto unit = kUnits.find(s[j]);
            if (unit == kUnits.end() || unit->second >= lastUnit)
                bad();
            total += s.mid(i, j - i).toLongLong() * unit->second;
            lastUnit = unit->second;
            i = j + 1;
        }
        ++m_pos;
        return total;
    }

    double number(const QString &what)
    {
        bool negative = false;
        const Token &sign = peek();
        if (isSymbol("-")) {
            negative = true;
            ++m_pos;
        }
        const Token &t = peek();
        bool ok = false;
        const double v = t.kind == Token::Kind::Number ? t.text.toDouble(&ok) : 0;
        if (!ok || !std::isfinite(v))
            fail(negative ? sign : t, QStringLiteral("expected %1 (a number), found %2").arg(what, describe(t)));
        ++m_pos;
        return negative ? -v : v;
    }

    int integer(const QString &what)
    {
        const Token &t = peek();
        const double v = number(what);
        if (v != std::floor(v) || std::abs(v) > 1e9)
            fail(t, QStringLiteral("expected %1 (a whole number), found %2").arg(what, describe(t)));
        return int(v);
    }

    QString string(const QString &what)
    {
        const Token &t = peek();
        if (t.kind != Token::Kind::String)
            fail(t, QStringLiteral("expected %1 in quotes, found %2").arg(what, describe(t)));
        ++m_pos;
        return t.text;
    }

    Selector selector()
    {
        if (isWord("all")) {
            ++m_pos;
            return {};
        }
        return Selector{false, string(QStringLiteral("'all' or a node name or GUID"))};
    }

    int timeOfDay()
    {
        const Token &t = peek();
        const QStringList parts = t.text.split(QLatin1Char(':'));
        bool okH = false, okM = false;
        const int h = parts.size() == 2 && parts[0].size() == 2 ? parts[0].toInt(&okH) : -1;
        const int m = parts.size() == 2 && parts[1].size() == 2 ? parts[1].toInt(&okM) : -1;
        if (t.kind != Token::Kind::Number || !okH || !okM || h > 23 || m > 59)
            fail(t, QStringLiteral("expected a time of day HH:MM (00:00 to 23:59), found %1").arg(describe(t)));
        ++m_pos;
        return h * 60 + m;
    }

    void parseRuleBody(Rule &rule)
    {
        QStringList given;  // each of priority, cooldown and mode at most once
        for (;;) {
            const Token &option = peek();
            if (option.kind == Token::Kind::Word && given.contains(option.text))
                fail(option, QStringLiteral("'%1' given twice in rule '%2'").arg(option.text, rule.name));
            given << option.text;
            if (isWord("priority")) {
                ++m_pos;
                rule.priority = integer(QStringLiteral("a priority"));
            } else if (isWord("cooldown")) {
                ++m_pos;
                rule.cooldownSeconds = duration();
            } else if (isWord("mode")) {
                ++m_pos;
                rule.mode = keyword(kModes, QStringLiteral("mode"));
            } else {
                break;
            }
        }
        const Token &when = peek();
        if (!isWord("when"))
            fail(when, QStringLiteral("expected 'when' (or priority, cooldown, mode), found %1").arg(describe(when)));
        ++m_pos;
        rule.condition = orExpression();
        if (isWord("for")) {
            ++m_pos;
            rule.forSeconds = duration();
        }
        const Token &then = peek();
        if (!isWord("then"))
            fail(then, QStringLiteral("expected 'then' (or and, or, for), found %1").arg(describe(then)));
        ++m_pos;
        const Token &firstAction = peek();
        rule.actions.push_back(action());
        while (isSymbol(",")) {
            ++m_pos;
            rule.actions.push_back(action());
        }
        // The link actions act on the links the rule's sick() terms found.
        const bool linkAction = std::any_of(rule.actions.begin(), rule.actions.end(), [](const Action &a) {
            return a.kind == Action::Kind::Report || a.kind == Action::Kind::Drain || a.kind == Action::Kind::Undrain;
        });
        if (linkAction && !hasSick(rule.condition))
            fail(firstAction, QStringLiteral("report(link), drain(link) and undrain(link) act on the links a sick(link[...]) term finds: rule '%1' has none").arg(rule.name));
        const Token &next = peek();
        if (next.kind != Token::Kind::End && !isWord("rule"))
            fail(next, QStringLiteral("expected ',' and another action, or the next 'rule', found %1").arg(describe(next)));
    }

    static bool hasSick(const Condition &c)
    {
        return c.kind == Condition::Kind::Sick || std::any_of(c.operands.begin(), c.operands.end(), hasSick);
    }

    Condition orExpression()
    {
        return chain(Condition::Kind::Or, "or", [this] { return andExpression(); });
    }
    Condition andExpression()
    {
        return chain(Condition::Kind::And, "and", [this] { return unary(); });
    }

    template <class Next>
    Condition chain(Condition::Kind kind, const char *word, Next next)
    {
        Condition first = next();
        if (!isWord(word))
            return first;
        Condition c;
        c.kind = kind;
        c.operands.push_back(std::move(first));
        while (isWord(word)) {
            ++m_pos;
            c.operands.push_back(next());
        }
        return c;
    }

    Condition unary()
    {
        if (++m_depth > kMaxDepth)
            fail(peek(), QStringLiteral("condition nested deeper than %1 levels of 'not' and parentheses").arg(kMaxDepth));
        Condition c = nestedUnary();
        --m_depth;
        return c;
    }

    Condition nestedUnary()
    {
        if (isWord("not")) {
            ++m_pos;
            Condition c;
            c.kind = Condition::Kind::Not;
            c.operands.push_back(unary());
            return c;
        }
        if (isSymbol("(")) {
            ++m_pos;
            Condition c = orExpression();
            expectSymbol(")", QStringLiteral("to close the parenthesis"));
            return c;
        }
        return term();
    }

    Comparison comparison()
    {
        const Token &t = peek();
        const std::optional<Comparison> c = t.kind == Token::Kind::Symbol ? lookup(kComparisons, t.text) : std::nullopt;
        if (!c)
            fail(t, QStringLiteral("expected a comparison (<, <=, >, >=, ==, !=), found %1").arg(describe(t)));
        ++m_pos;
        return *c;
    }

    Condition term()
    {
        Condition c;
        const Token &t = peek();
        if (t.kind != Token::Kind::Word)
            fail(t, QStringLiteral("expected a condition (a metric, a parameter, 'time in', 'event(', 'sick(', 'not' or '('), found %1").arg(describe(t)));
        if (isWord("time") && isWord("in", 1)) {
            m_pos += 2;
            c.kind = Condition::Kind::TimeIn;
            c.fromMinute = timeOfDay();
            expectSymbol("..", QStringLiteral("between the two times"));
            c.toMinute = timeOfDay();
            return c;
        }
        const bool call = peek(1).kind == Token::Kind::Symbol && peek(1).text == QLatin1String("(");
        if (isWord("event") && call) {
            m_pos += 2;
            c.kind = Condition::Kind::Event;
            c.event = keyword(kEvents, QStringLiteral("event"));
            expectSymbol(")", QStringLiteral("after the event name"));
            return c;
        }
        if (isWord("sick") && call) {
            m_pos += 2;
            c.kind = Condition::Kind::Sick;
            expectWord(QStringLiteral("link"));
            expectSymbol("[", QStringLiteral("after 'link'"));
            c.link = selector();
            expectSymbol("]", QStringLiteral("after the selector"));
            sickOptions(c.sick);
            expectSymbol(")", QStringLiteral("to close sick("));
            return c;
        }
        if (call) {
            c.kind = Condition::Kind::MetricCompare;
            c.metric = metric();
        } else {
            ++m_pos;
            c.kind = Condition::Kind::ParamCompare;
            c.param = t.text;
        }
        c.comparison = comparison();
        c.value = number(QStringLiteral("a value to compare with"));
        return c;
    }

    void sickOptions(SickCriteria &sick)
    {
        const QString known = QStringLiteral("window=, flaps=, ber=, symbol_errors=, unanswered= or passes=");
        while (isSymbol(",")) {
            ++m_pos;
            const Token &option = word(known);
            expectSymbol("=", QStringLiteral("after '%1'").arg(option.text));
            const QString &o = option.text;
            const Token &valueToken = peek();
            auto count = [&](std::optional<int> &into, int least) {
                if (into)
                    fail(option, QStringLiteral("sick option '%1' given twice").arg(o));
                into = integer(o);
                if (*into < least)
                    fail(valueToken, QStringLiteral("%1 must be at least %2").arg(o).arg(least));
            };
            if (o == QLatin1String("window")) {
                if (sick.windowSeconds)
                    fail(option, QStringLiteral("sick option 'window' given twice"));
                sick.windowSeconds = duration();
                if (*sick.windowSeconds <= 0)
                    fail(valueToken, QStringLiteral("window must be longer than 0s"));
            } else if (o == QLatin1String("flaps")) {
                count(sick.flaps, 1);
            } else if (o == QLatin1String("ber")) {
                if (sick.ber)
                    fail(option, QStringLiteral("sick option 'ber' given twice"));
                sick.ber = number(QStringLiteral("a bit error rate"));
                if (!(*sick.ber > 0) || *sick.ber >= 1)
                    fail(valueToken, QStringLiteral("ber must be above 0 and below 1 (e.g. 1e-12)"));
            } else if (o == QLatin1String("symbol_errors")) {
                count(sick.symbolErrors, 1);
            } else if (o == QLatin1String("unanswered")) {
                count(sick.unanswered, 1);
            } else if (o == QLatin1String("passes")) {
                count(sick.passes, 1);
            } else {
                fail(option, QStringLiteral("unknown sick option '%1': expected %2").arg(o, known));
            }
        }
        if (sick.unanswered && sick.passes && *sick.unanswered > *sick.passes)
            fail(peek(), QStringLiteral("unanswered=%1 is more than passes=%2").arg(*sick.unanswered).arg(*sick.passes));
    }

    // report(link), drain(link[, max=N]), undrain(link[, clean=D]).
    void linkActionOptions(Action &a)
    {
        expectWord(QStringLiteral("link"));
        while (isSymbol(",")) {
            ++m_pos;
            const Token &option = word(a.kind == Action::Kind::Drain ? QStringLiteral("max=") : QStringLiteral("clean="));
            expectSymbol("=", QStringLiteral("after '%1'").arg(option.text));
            const Token &valueToken = peek();
            if (a.kind == Action::Kind::Drain && option.text == QLatin1String("max") && !a.maxDrained) {
                a.maxDrained = integer(QStringLiteral("the most links drained"));
                if (*a.maxDrained < 1)
                    fail(valueToken, QStringLiteral("max must be at least 1"));
            } else if (a.kind == Action::Kind::Undrain && option.text == QLatin1String("clean") && !a.cleanSeconds) {
                a.cleanSeconds = duration();
                if (*a.cleanSeconds <= 0)
                    fail(valueToken, QStringLiteral("clean must be longer than 0s"));
            } else {
                fail(option, QStringLiteral("unknown or repeated option '%1' of %2(): expected %3")
                                 .arg(option.text, a.kind == Action::Kind::Drain ? QStringLiteral("drain") : a.kind == Action::Kind::Undrain ? QStringLiteral("undrain") : QStringLiteral("report"),
                                      a.kind == Action::Kind::Drain ? QStringLiteral("max=") : a.kind == Action::Kind::Undrain ? QStringLiteral("clean=") : QStringLiteral("none")));
            }
        }
    }

    Metric metric()
    {
        Metric m;
        m.aggregate = keyword(kAggregates, QStringLiteral("aggregate"));
        expectSymbol("(", QStringLiteral("after the aggregate"));
        m.scope = keyword(kScopes, QStringLiteral("scope"));
        switch (m.scope) {
        case ScopeKind::Node:
        case ScopeKind::Link:
            expectSymbol("[", QStringLiteral("after '%1'").arg(nameOf(kScopes, m.scope)));
            m.target = selector();
            expectSymbol("]", QStringLiteral("after the selector"));
            break;
        case ScopeKind::Tenant:
        case ScopeKind::Partition:
            expectSymbol("(", QStringLiteral("after '%1'").arg(nameOf(kScopes, m.scope)));
            m.target = Selector{false, string(QStringLiteral("a %1 name").arg(nameOf(kScopes, m.scope)))};
            expectSymbol(")", QStringLiteral("after the name"));
            break;
        case ScopeKind::Fabric:
            break;
        }
        expectSymbol(".", QStringLiteral("before the field"));
        m.field = keyword(kFields, QStringLiteral("field"));
        if (isSymbol(",")) {
            ++m_pos;
            expectWord(QStringLiteral("window"));
            expectSymbol("=", QStringLiteral("after 'window'"));
            m.windowSeconds = duration();
        }
        expectSymbol(")", QStringLiteral("to close the metric"));
        return m;
    }

    Action action()
    {
        Action a;
        const Token &t = peek();
        static constexpr Names<Action::Kind, 8> kActions{{{Action::Kind::Reroute, "reroute"}, {Action::Kind::SetWeight, "set_weight"}, {Action::Kind::SetIsolation, "set_isolation"}, {Action::Kind::Notify, "notify"}, {Action::Kind::RequireApproval, "require_approval"}, {Action::Kind::Report, "report"}, {Action::Kind::Drain, "drain"}, {Action::Kind::Undrain, "undrain"}}};
        a.kind = keyword(kActions, QStringLiteral("action"));
        if (a.kind == Action::Kind::RequireApproval)
            return a;
        expectSymbol("(", QStringLiteral("after '%1'").arg(t.text));
        switch (a.kind) {
        case Action::Kind::Reroute:
            rerouteOptions(a);
            break;
        case Action::Kind::SetWeight:
            a.node = selector();
            expectSymbol(",", QStringLiteral("between the node and the weight"));
            a.weight = number(QStringLiteral("a weight"));
            break;
        case Action::Kind::SetIsolation: {
            const Token &p = peek();
            a.partition = p.kind == Token::Kind::String ? string({}) : word(QStringLiteral("a partition name")).text;
            expectSymbol(",", QStringLiteral("between the partition and the policy"));
            const Token &policyToken = word(QStringLiteral("an isolation policy"));
            const std::optional<IsolationPolicy> policy = policyFromName(policyToken.text);
            if (!policy)
                fail(policyToken, QStringLiteral("unknown isolation policy '%1': expected phy-isolation|vlane-isolation|def-isolation").arg(policyToken.text));
            a.policy = *policy;
            break;
        }
        case Action::Kind::Notify:
            a.text = string(QStringLiteral("a message"));
            break;
        case Action::Kind::RequireApproval:
            break;
        case Action::Kind::Report:
        case Action::Kind::Drain:
        case Action::Kind::Undrain:
            linkActionOptions(a);
            break;
        }
        expectSymbol(")", QStringLiteral("to close the action"));
        return a;
    }

    void rerouteOptions(Action &a)
    {
        expectWord(QStringLiteral("engine"));
        expectSymbol("=", QStringLiteral("after 'engine'"));
        a.engine = keyword(kEngines, QStringLiteral("engine"));
        while (isSymbol(",")) {
            ++m_pos;
            const Token &option = word(QStringLiteral("weights=, method= or tau="));
            expectSymbol("=", QStringLiteral("after '%1'").arg(option.text));
            if (option.text == QLatin1String("weights") && !a.weightsGiven) {
                a.weightsGiven = true;
                if (isWord("static")) {
                    ++m_pos;
                } else if (isWord("learned")) {
                    ++m_pos;
                    expectSymbol("(", QStringLiteral("after 'learned'"));
                    a.learnedWeightsWindow = duration();
                    expectSymbol(")", QStringLiteral("after the learning window"));
                } else {
                    fail(peek(), QStringLiteral("unknown weights %1: expected static or learned(DURATION)").arg(describe(peek())));
                }
            } else if (option.text == QLatin1String("method") && !a.method) {
                a.method = keyword(kMethods, QStringLiteral("method"));
            } else if (option.text == QLatin1String("tau") && !a.tau) {
                a.tau = number(QStringLiteral("tau"));
            } else {
                fail(option, QStringLiteral("unknown or repeated reroute option '%1': expected weights=, method= or tau=").arg(option.text));
            }
        }
    }
};

QString selectorText(const Selector &s)
{
    return s.all ? QStringLiteral("all") : quoted(s.name);
}

QString metricText(const Metric &m)
{
    QString scope = nameOf(kScopes, m.scope);
    switch (m.scope) {
    case ScopeKind::Node:
    case ScopeKind::Link: scope += QLatin1Char('[') + selectorText(m.target) + QLatin1Char(']'); break;
    case ScopeKind::Tenant:
    case ScopeKind::Partition: scope += QLatin1Char('(') + quoted(m.target.name) + QLatin1Char(')'); break;
    case ScopeKind::Fabric: break;
    }
    QString text = nameOf(kAggregates, m.aggregate) + QLatin1Char('(') + scope + QLatin1Char('.') + nameOf(kFields, m.field);
    if (m.windowSeconds)
        text += QStringLiteral(", window=") + durationToText(m.windowSeconds);
    return text + QLatin1Char(')');
}

QString timeText(int minute)
{
    return QStringLiteral("%1:%2").arg(minute / 60, 2, 10, QLatin1Char('0')).arg(minute % 60, 2, 10, QLatin1Char('0'));
}

// An operand of and/or/not in parentheses when it is itself compound, so that the text
// parses back to the same tree.
QString operandText(const Condition &c)
{
    const bool compound = c.kind == Condition::Kind::And || c.kind == Condition::Kind::Or;
    return compound ? QLatin1Char('(') + conditionToText(c) + QLatin1Char(')') : conditionToText(c);
}

}  // namespace

bool Condition::operator==(const Condition &o) const
{
    if (kind != o.kind)
        return false;
    switch (kind) {
    case Kind::And:
    case Kind::Or:
    case Kind::Not: return operands == o.operands;
    case Kind::MetricCompare: return metric == o.metric && comparison == o.comparison && value == o.value;
    case Kind::ParamCompare: return param == o.param && comparison == o.comparison && value == o.value;
    case Kind::TimeIn: return fromMinute == o.fromMinute && toMinute == o.toMinute;
    case Kind::Event: return event == o.event;
    case Kind::Sick: return link == o.link && sick == o.sick;
    }
    return false;
}

bool Action::operator==(const Action &o) const
{
    return kind == o.kind && engine == o.engine && learnedWeightsWindow == o.learnedWeightsWindow && weightsGiven == o.weightsGiven && method == o.method
        && tau == o.tau && node == o.node && weight == o.weight && partition == o.partition && policy == o.policy && text == o.text
        && maxDrained == o.maxDrained && cleanSeconds == o.cleanSeconds;
}

bool Rule::operator==(const Rule &o) const
{
    return name == o.name && priority == o.priority && cooldownSeconds == o.cooldownSeconds && mode == o.mode && condition == o.condition
        && forSeconds == o.forSeconds && actions == o.actions;
}

QString RuleSyntaxError::toString() const
{
    return QStringLiteral("%1:%2:%3: %4").arg(file).arg(line).arg(column).arg(message);
}

RuleFile parseRules(const QByteArray &text, const QString &fileName)
{
    RuleFile file;
    try {
        Parser parser(tokenize(std::string_view(text.constData(), std::size_t(text.size()))));
        file.rules = parser.rules();
    } catch (const SyntaxFailure &f) {
        file.rules.clear();
        file.error = RuleSyntaxError{fileName, f.line, f.column, f.message};
    }
    return file;
}

QString durationToText(std::int64_t seconds)
{
    if (seconds == 0)
        return QStringLiteral("0s");
    QString text;
    for (const auto &[unit, size] : {std::pair{'d', 86400}, std::pair{'h', 3600}, std::pair{'m', 60}, std::pair{'s', 1}}) {
        if (seconds >= size) {
            text += QString::number(seconds / size) + QLatin1Char(unit);
            seconds %= size;
        }
    }
    return text;
}

QString modeName(RuleMode mode)
{
    return nameOf(kModes, mode);
}

std::optional<RuleMode> modeFromName(const QString &name)
{
    return lookup(kModes, name);
}

QString conditionToText(const Condition &c)
{
    switch (c.kind) {
    case Condition::Kind::And:
    case Condition::Kind::Or: {
        QStringList parts;
        for (const Condition &operand : c.operands)
            parts << operandText(operand);
        return parts.join(c.kind == Condition::Kind::And ? QStringLiteral(" and ") : QStringLiteral(" or "));
    }
    case Condition::Kind::Not: return QStringLiteral("not ") + operandText(c.operands.front());
    case Condition::Kind::MetricCompare: return metricText(c.metric) + QLatin1Char(' ') + nameOf(kComparisons, c.comparison) + QLatin1Char(' ') + numberText(c.value);
    case Condition::Kind::ParamCompare: return c.param + QLatin1Char(' ') + nameOf(kComparisons, c.comparison) + QLatin1Char(' ') + numberText(c.value);
    case Condition::Kind::TimeIn: return QStringLiteral("time in ") + timeText(c.fromMinute) + QStringLiteral("..") + timeText(c.toMinute);
    case Condition::Kind::Event: return QStringLiteral("event(") + nameOf(kEvents, c.event) + QLatin1Char(')');
    case Condition::Kind::Sick: {
        QString text = QStringLiteral("sick(link[") + selectorText(c.link) + QLatin1Char(']');
        const SickCriteria &k = c.sick;
        if (k.windowSeconds)
            text += QStringLiteral(", window=") + durationToText(*k.windowSeconds);
        if (k.flaps)
            text += QStringLiteral(", flaps=%1").arg(*k.flaps);
        if (k.ber)
            text += QStringLiteral(", ber=") + numberText(*k.ber);
        if (k.symbolErrors)
            text += QStringLiteral(", symbol_errors=%1").arg(*k.symbolErrors);
        if (k.unanswered)
            text += QStringLiteral(", unanswered=%1").arg(*k.unanswered);
        if (k.passes)
            text += QStringLiteral(", passes=%1").arg(*k.passes);
        return text + QLatin1Char(')');
    }
    }
    return {};
}

QString actionToText(const Action &a)
{
    switch (a.kind) {
    case Action::Kind::Reroute: {
        QString text = QStringLiteral("reroute(engine=") + nameOf(kEngines, a.engine);
        if (a.weightsGiven)
            text += a.learnedWeightsWindow ? QStringLiteral(", weights=learned(%1)").arg(durationToText(*a.learnedWeightsWindow)) : QStringLiteral(", weights=static");
        if (a.method)
            text += QStringLiteral(", method=") + nameOf(kMethods, *a.method);
        if (a.tau)
            text += QStringLiteral(", tau=") + numberText(*a.tau);
        return text + QLatin1Char(')');
    }
    case Action::Kind::SetWeight: return QStringLiteral("set_weight(%1, %2)").arg(selectorText(a.node), numberText(a.weight));
    case Action::Kind::SetIsolation: return QStringLiteral("set_isolation(%1, %2)").arg(quoted(a.partition), policyName(a.policy));
    case Action::Kind::Notify: return QStringLiteral("notify(%1)").arg(quoted(a.text));
    case Action::Kind::RequireApproval: return QStringLiteral("require_approval");
    case Action::Kind::Report: return QStringLiteral("report(link)");
    case Action::Kind::Drain: return a.maxDrained ? QStringLiteral("drain(link, max=%1)").arg(*a.maxDrained) : QStringLiteral("drain(link)");
    case Action::Kind::Undrain:
        return a.cleanSeconds ? QStringLiteral("undrain(link, clean=%1)").arg(durationToText(*a.cleanSeconds)) : QStringLiteral("undrain(link)");
    }
    return {};
}

QString ruleToText(const Rule &rule)
{
    QString text = QStringLiteral("rule ") + rule.name;
    if (rule.priority)
        text += QStringLiteral(" priority %1").arg(rule.priority);
    if (rule.cooldownSeconds)
        text += QStringLiteral(" cooldown ") + durationToText(rule.cooldownSeconds);
    if (rule.mode != RuleMode::Approve)
        text += QStringLiteral(" mode ") + modeName(rule.mode);
    text += QStringLiteral(" when ") + conditionToText(rule.condition);
    if (rule.forSeconds)
        text += QStringLiteral(" for ") + durationToText(rule.forSeconds);
    QStringList actions;
    for (const Action &a : rule.actions)
        actions << actionToText(a);
    return text + QStringLiteral(" then ") + actions.join(QStringLiteral(", "));
}

}  // namespace weft::adapt
