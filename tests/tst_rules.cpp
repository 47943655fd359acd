// Weft's rule language (spec 003 §5.4): the parser's tree for the spec's examples, the
// canonical printer's round trip, errors at their exact line and column, and `weft rules check`.

#include "RuleLanguage.h"
#include "WeftRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace weft::adapt;
using weft::test::Run;
using weft::test::runWeft;

namespace {

const QByteArray kSpecExamples =
    "# the spec's two examples, the first over two lines\n"
    "rule low_tput when avg(node[all].rx_gbps, window=5m) < 40 for 10m\n"
    "    then reroute(engine=wftree, weights=learned(30m), method=metabase)\n"
    "\n"
    "rule night_save when time in 22:00..06:00 then reroute(engine=wftree, weights=static)\n";

const QByteArray kEverything =
    "rule hot priority 7 cooldown 2h30m mode auto\n"
    "  when (p95(link[\"0x0002c90300001234\"].util, window=1h) >= 0.9 or event(link_down))\n"
    "       and not max_hot_links > -3 and sum(tenant(\"blue\").xmit_wait_rate) != 1e6\n"
    "       and min(partition(\"gold\").errors) == 0 or max(fabric.weight) <= 2\n"
    "  for 30s\n"
    "  then reroute(engine=wpftree, method=slimupdate, tau=0.25), set_weight(\"h1\", 2.5),\n"
    "       set_isolation(\"gold\", phy-isolation), notify(\"load \\\"high\\\"\"), require_approval\n"
    "rule quiet mode dry-run when not (event(node_added) or time in 08:00..17:30) then set_weight(all, 1)\n";

RuleFile parse(const QByteArray &text)
{
    return parseRules(text, QStringLiteral("test.rules"));
}

}  // namespace

class TestRules : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &text)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            return {};
        return path;
    }

private Q_SLOTS:
    void specExamplesParse()
    {
        const RuleFile file = parse(kSpecExamples);
        QVERIFY2(file.ok(), qPrintable(file.error ? file.error->toString() : QString()));
        QCOMPARE(file.rules.size(), std::size_t(2));

        const Rule &low = file.rules[0];
        QCOMPARE(low.name, QStringLiteral("low_tput"));
        QCOMPARE(low.line, 2);
        QCOMPARE(low.priority, 0);
        QCOMPARE(low.cooldownSeconds, 0);
        QCOMPARE(low.mode, RuleMode::Approve);
        QCOMPARE(low.forSeconds, 600);
        QCOMPARE(low.condition.kind, Condition::Kind::MetricCompare);
        QCOMPARE(low.condition.metric.aggregate, Aggregate::Avg);
        QCOMPARE(low.condition.metric.scope, ScopeKind::Node);
        QVERIFY(low.condition.metric.target.all);
        QCOMPARE(low.condition.metric.field, MetricField::RxGbps);
        QCOMPARE(low.condition.metric.windowSeconds, 300);
        QCOMPARE(low.condition.comparison, Comparison::Less);
        QCOMPARE(low.condition.value, 40.0);
        QCOMPARE(low.actions.size(), std::size_t(1));
        const Action &reroute = low.actions[0];
        QCOMPARE(reroute.kind, Action::Kind::Reroute);
        QCOMPARE(reroute.engine, RerouteEngine::Wftree);
        QVERIFY(reroute.weightsGiven);
        QCOMPARE(reroute.learnedWeightsWindow, std::optional<std::int64_t>(1800));
        QCOMPARE(reroute.method, std::optional<RerouteMethod>(RerouteMethod::Metabase));
        QVERIFY(!reroute.tau);

        const Rule &night = file.rules[1];
        QCOMPARE(night.name, QStringLiteral("night_save"));
        QCOMPARE(night.line, 5);
        QCOMPARE(night.forSeconds, 0);
        QCOMPARE(night.condition.kind, Condition::Kind::TimeIn);
        QCOMPARE(night.condition.fromMinute, 22 * 60);
        QCOMPARE(night.condition.toMinute, 6 * 60);
        QCOMPARE(night.actions.size(), std::size_t(1));
        QCOMPARE(night.actions[0].engine, RerouteEngine::Wftree);
        QVERIFY(night.actions[0].weightsGiven);
        QVERIFY(!night.actions[0].learnedWeightsWindow);
        QVERIFY(!night.actions[0].method);

        // The spec's own rendering is the canonical text.
        QCOMPARE(ruleToText(low), QStringLiteral("rule low_tput when avg(node[all].rx_gbps, window=5m) < 40 for 10m then "
                                                 "reroute(engine=wftree, weights=learned(30m), method=metabase)"));
        QCOMPARE(ruleToText(night), QStringLiteral("rule night_save when time in 22:00..06:00 then reroute(engine=wftree, weights=static)"));
    }

    void precedenceAndEveryConstruct()
    {
        const RuleFile file = parse(kEverything);
        QVERIFY2(file.ok(), qPrintable(file.error ? file.error->toString() : QString()));
        QCOMPARE(file.rules.size(), std::size_t(2));
        const Rule &hot = file.rules[0];
        QCOMPARE(hot.priority, 7);
        QCOMPARE(hot.cooldownSeconds, 9000);
        QCOMPARE(hot.mode, RuleMode::Auto);
        QCOMPARE(hot.forSeconds, 30);
        // `and` binds tighter than `or`: (A and not B and C and D) or E.
        const Condition &c = hot.condition;
        QCOMPARE(c.kind, Condition::Kind::Or);
        QCOMPARE(c.operands.size(), std::size_t(2));
        QCOMPARE(c.operands[0].kind, Condition::Kind::And);
        QCOMPARE(c.operands[0].operands.size(), std::size_t(4));
        QCOMPARE(c.operands[0].operands[0].kind, Condition::Kind::Or);  // the parenthesis
        QCOMPARE(c.operands[0].operands[0].operands[1].event, RuleEvent::LinkDown);
        const Metric &p95 = c.operands[0].operands[0].operands[0].metric;
        QCOMPARE(p95.aggregate, Aggregate::P95);
        QCOMPARE(p95.scope, ScopeKind::Link);
        QCOMPARE(p95.target.name, QStringLiteral("0x0002c90300001234"));
        QCOMPARE(p95.windowSeconds, 3600);
        const Condition &notParam = c.operands[0].operands[1];
        QCOMPARE(notParam.kind, Condition::Kind::Not);
        QCOMPARE(notParam.operands[0].kind, Condition::Kind::ParamCompare);
        QCOMPARE(notParam.operands[0].param, QStringLiteral("max_hot_links"));
        QCOMPARE(notParam.operands[0].value, -3.0);
        QCOMPARE(c.operands[0].operands[2].metric.scope, ScopeKind::Tenant);
        QCOMPARE(c.operands[0].operands[2].metric.target.name, QStringLiteral("blue"));
        QCOMPARE(c.operands[0].operands[2].comparison, Comparison::NotEqual);
        QCOMPARE(c.operands[0].operands[2].value, 1e6);
        QCOMPARE(c.operands[1].metric.scope, ScopeKind::Fabric);
        QCOMPARE(c.operands[1].metric.field, MetricField::Weight);

        QCOMPARE(hot.actions.size(), std::size_t(5));
        QCOMPARE(hot.actions[0].engine, RerouteEngine::Wpftree);
        QVERIFY(!hot.actions[0].weightsGiven);
        QCOMPARE(hot.actions[0].method, std::optional<RerouteMethod>(RerouteMethod::SlimUpdate));
        QCOMPARE(hot.actions[0].tau, std::optional<double>(0.25));
        QCOMPARE(hot.actions[1].kind, Action::Kind::SetWeight);
        QCOMPARE(hot.actions[1].node.name, QStringLiteral("h1"));
        QCOMPARE(hot.actions[1].weight, 2.5);
        QCOMPARE(hot.actions[2].policy, weft::IsolationPolicy::Physical);
        QCOMPARE(hot.actions[3].text, QStringLiteral("load \"high\""));
        QCOMPARE(hot.actions[4].kind, Action::Kind::RequireApproval);

        const Rule &quiet = file.rules[1];
        QCOMPARE(quiet.mode, RuleMode::DryRun);
        QCOMPARE(quiet.condition.kind, Condition::Kind::Not);
        QCOMPARE(quiet.condition.operands[0].kind, Condition::Kind::Or);
        QCOMPARE(quiet.condition.operands[0].operands[1].toMinute, 17 * 60 + 30);
        QVERIFY(quiet.actions[0].node.all);
    }

    void roundTrip_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addRow("spec examples") << kSpecExamples;
        QTest::addRow("every construct") << kEverything;
        QTest::addRow("numbers in exponent form") << QByteArray("rule big when sum(fabric.errors) > 1e+20 and x < -2.5e-7 then set_weight(\"h\", 1e21)");
        QTest::addRow("a number of many digits (found by the fuzzer)") << QByteArray("rule n when x < 4444444444444444444440 and y > 0.1 then notify(\"x\")");
        QTest::addRow("nested and inside and") << QByteArray("rule n when (a > 1 and b > 2) and c > 3 or not (d < 1 or e < 2) then notify(\"x\")");
    }

    void roundTrip()
    {
        QFETCH(QByteArray, text);
        const RuleFile first = parse(text);
        QVERIFY2(first.ok(), qPrintable(first.error ? first.error->toString() : QString()));
        QByteArray printed;
        for (const Rule &rule : first.rules)
            printed += ruleToText(rule).toUtf8() + '\n';
        const RuleFile second = parse(printed);
        QVERIFY2(second.ok(), qPrintable(second.error ? second.error->toString() : QString()));
        QCOMPARE(second.rules.size(), first.rules.size());
        for (std::size_t i = 0; i < first.rules.size(); ++i) {
            QVERIFY2(second.rules[i] == first.rules[i], qPrintable(ruleToText(second.rules[i])));
            QCOMPARE(ruleToText(second.rules[i]), ruleToText(first.rules[i]));
        }
    }

    void durations()
    {
        QCOMPARE(durationToText(9000), QStringLiteral("2h30m"));
        QCOMPARE(durationToText(0), QStringLiteral("0s"));
        QCOMPARE(durationToText(90061), QStringLiteral("1d1h1m1s"));
        const RuleFile file = parse("rule d cooldown 1h15s when x > 1 for 45s then require_approval");
        QVERIFY(file.ok());
        QCOMPARE(file.rules[0].cooldownSeconds, 3615);
        QCOMPARE(file.rules[0].forSeconds, 45);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::addRow("missing then") << QByteArray("rule a when x > 1\n  notify(\"x\")") << 2 << 3
                                      << QStringLiteral("expected 'then' (or and, or, for), found 'notify'");
        QTest::addRow("unknown field") << QByteArray("rule a when avg(node[all].rx_gbit) < 4 then require_approval") << 1 << 27
                                       << QStringLiteral("unknown field 'rx_gbit': expected rx_gbps|tx_gbps|util|xmit_wait_rate|errors|weight");
        QTest::addRow("duration without unit") << QByteArray("rule a when x > 1 for 10 then require_approval") << 1 << 23
                                               << QStringLiteral("bad duration '10': expected a number and a unit, as 30s, 5m, 1h or 2h30m");
        QTest::addRow("duration units out of order") << QByteArray("rule a cooldown 5m1h when x > 1 then require_approval") << 1 << 17
                                                     << QStringLiteral("bad duration '5m1h': expected a number and a unit, as 30s, 5m, 1h or 2h30m");
        QTest::addRow("duplicate rule name") << QByteArray("rule a when x > 1 then require_approval\n# again\nrule a when y > 1 then require_approval") << 3 << 6
                                             << QStringLiteral("duplicate rule name 'a' (first defined on line 1)");
        QTest::addRow("unknown engine") << QByteArray("rule a when x > 1 then reroute(engine=minhop)") << 1 << 39
                                        << QStringLiteral("unknown engine 'minhop': expected ftree|wftree|pftree|wpftree|vswitch");
        QTest::addRow("unknown aggregate") << QByteArray("rule a when mean(fabric.util) > 1 then require_approval") << 1 << 13
                                           << QStringLiteral("unknown aggregate 'mean': expected avg|max|min|p95|sum");
        QTest::addRow("unknown event") << QByteArray("rule a when event(link_up) then require_approval") << 1 << 19
                                       << QStringLiteral("unknown event 'link_up': expected topology_change|link_down|node_added|node_removed|vm_migrated|tenant_changed");
        QTest::addRow("bad time of day") << QByteArray("rule a\n  when time in 24:00..06:00 then require_approval") << 2 << 16
                                         << QStringLiteral("expected a time of day HH:MM (00:00 to 23:59), found '24:00'");
        QTest::addRow("unterminated string") << QByteArray("rule a when x > 1 then notify(\"abc)\n") << 1 << 31
                                             << QStringLiteral("unterminated string: expected a closing '\"' on the same line");
        QTest::addRow("unclosed parenthesis") << QByteArray("rule a when (x > 1 then require_approval") << 1 << 20
                                              << QStringLiteral("expected ')' to close the parenthesis, found 'then'");
        QTest::addRow("not a rule") << QByteArray("\n\n  rules a when x > 1 then require_approval") << 3 << 3
                                    << QStringLiteral("expected 'rule', found 'rules'");
        QTest::addRow("unknown mode") << QByteArray("rule a mode sometimes when x > 1 then require_approval") << 1 << 13
                                      << QStringLiteral("unknown mode 'sometimes': expected auto|approve|dry-run");
        QTest::addRow("unquoted node") << QByteArray("rule a when max(node[h1].util) > 1 then require_approval") << 1 << 22
                                       << QStringLiteral("expected 'all' or a node name or GUID in quotes, found 'h1'");
        QTest::addRow("junk after actions") << QByteArray("# c\n\nrule a when x > 1 then\n  notify(\"x\") foo") << 4 << 15
                                            << QStringLiteral("expected ',' and another action, or the next 'rule', found 'foo'");
        QTest::addRow("unknown policy") << QByteArray("rule a when x > 1 then set_isolation(\"gold\", walls)") << 1 << 46
                                        << QStringLiteral("unknown isolation policy 'walls': expected phy-isolation|vlane-isolation|def-isolation");
        QTest::addRow("stray character") << QByteArray("rule a when x > 1; then require_approval") << 1 << 18
                                         << QStringLiteral("unexpected character ';'");
        QTest::addRow("missing value") << QByteArray("rule a when x > then require_approval") << 1 << 17
                                       << QStringLiteral("expected a value to compare with (a number), found 'then'");
        QTest::addRow("nesting too deep") << QByteArray("rule a when " + QByteArray(100, '(') + "x > 1") << 1 << 77
                                          << QStringLiteral("condition nested deeper than 64 levels of 'not' and parentheses");
        QTest::addRow("priority twice") << QByteArray("rule a priority 1 mode auto\n  priority 2 when x > 1 then require_approval") << 2 << 3
                                        << QStringLiteral("'priority' given twice in rule 'a'");
        QTest::addRow("NUL in a string") << QByteArray("rule a when x > 1 then notify(\"ab\0cd\")", 38) << 1 << 34
                                         << QStringLiteral("control character \\x00 in a string");
        QTest::addRow("NUL outside a string") << QByteArray("rule a when x > 1\0 then", 23) << 1 << 18
                                              << QStringLiteral("unexpected character '\\x00'");
        QTest::addRow("word of 100,000 characters") << QByteArray("rule a when " + QByteArray(100000, 'x') + " > 1 then require_approval") << 1 << 13
                                                    << QStringLiteral("a word of 100000 characters ('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'); the longest a rule file allows is 256");
        QTest::addRow("string of 100,000 characters") << QByteArray("rule a when x > 1 then notify(\"" + QByteArray(100000, 'y') + "\")") << 1 << 31
                                                      << QStringLiteral("a string longer than 4096 characters (\"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...\"); the longest a rule file allows is 4096");
        QTest::addRow("empty action list") << QByteArray("rule a when x > 1 then") << 1 << 23
                                           << QStringLiteral("expected action (reroute|set_weight|set_isolation|notify|require_approval|report|drain|undrain), found the end of the file");
    }

    void errors()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const RuleFile file = parse(text);
        QVERIFY(!file.ok());
        QVERIFY(file.rules.empty());
        QCOMPARE(file.error->message, message);
        QCOMPARE(file.error->line, line);
        QCOMPARE(file.error->column, column);
        QCOMPARE(file.error->toString(), QStringLiteral("test.rules:%1:%2: %3").arg(line).arg(column).arg(message));
    }

    void cliChecksAGoodFile()
    {
        QVERIFY(m_dir.isValid());
        const QString path = write(QStringLiteral("good.rules"), kSpecExamples);
        QVERIFY(!path.isEmpty());
        const Run text = runWeft({QStringLiteral("rules"), QStringLiteral("check"), path});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.err.isEmpty());
        const QList<QByteArray> lines = text.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QByteArray("low_tput: priority 0, mode approve, for 10m, cooldown 0s, then "
                                      "reroute(engine=wftree, weights=learned(30m), method=metabase)"));
        QCOMPARE(lines[1], QByteArray("night_save: priority 0, mode approve, for 0s, cooldown 0s, then reroute(engine=wftree, weights=static)"));
        QCOMPARE(lines[2], QByteArray("2 rules, no errors"));

        const Run json = runWeft({QStringLiteral("rules"), QStringLiteral("check"), QStringLiteral("--json"), path});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray rules = QJsonDocument::fromJson(json.out).object().value(QStringLiteral("rules")).toArray();
        QCOMPARE(rules.size(), 2);
        QCOMPARE(rules[0].toObject().value(QStringLiteral("for_seconds")).toInt(), 600);
        QCOMPARE(rules[1].toObject().value(QStringLiteral("line")).toInt(), 5);
        QCOMPARE(rules[1].toObject().value(QStringLiteral("actions")).toArray().at(0).toString(), QStringLiteral("reroute(engine=wftree, weights=static)"));
    }

    // The fuzzer's seed (scripts/fuzz) is a good file: checked here so that it stays one.
    void cliChecksTheExampleFile()
    {
        const QString path = QFINDTESTDATA("data/rules/examples.rules");
        QVERIFY(!path.isEmpty());
        const Run r = runWeft({QStringLiteral("rules"), QStringLiteral("check"), path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.endsWith("3 rules, no errors\n"));
    }

    void cliRefusesABadFile()
    {
        const QString path = write(QStringLiteral("bad.rules"), "# one good rule, then one without `then`\n"
                                                                "rule ok when x > 1 then require_approval\n"
                                                                "rule broken when avg(fabric.util) > 0.8\n"
                                                                "    reroute(engine=ftree)\n");
        QVERIFY(!path.isEmpty());
        const Run r = runWeft({QStringLiteral("rules"), QStringLiteral("check"), path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(QString::fromUtf8(r.err).trimmed(), QStringLiteral("%1:4:5: expected 'then' (or and, or, for), found 'reroute'").arg(path));

        const Run missing = runWeft({QStringLiteral("rules"), QStringLiteral("check"), m_dir.filePath(QStringLiteral("none.rules"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("none.rules"));
        const Run usage = runWeft({QStringLiteral("rules"), QStringLiteral("lint"), path});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY(usage.err.contains("expected the subcommand 'check'"));
    }
};

QTEST_GUILESS_MAIN(TestRules)
#include "tst_rules.moc"
