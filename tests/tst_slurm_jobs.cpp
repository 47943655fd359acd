// Partitions that follow Slurm's jobs, as plans (session/service/JobPartitions.h): the P_Key
// pool, a job's hosts named as `weft slurm topology` names them, the same P_Key and nothing to
// commit for a repeated start, the lowest free P_Key, refusals, and the end taking the job's
// partition out of the partitions.conf the plan installs.

#include "JobPartitions.h"
#include "PartitionsConf.h"
#include "TinyFabric.h"

#include <QtTest>

using namespace weft;

namespace {

// The partitions a plan installs, read back from its partitions.conf.
std::vector<Partition> installed(const CommitPlan &plan)
{
    Result<PartitionsConfResult> conf = readPartitionsConf(plan.partitionsConf, QStringLiteral("planned"));
    return conf ? conf->partitions : std::vector<Partition>{};
}

const Partition *named(const std::vector<Partition> &partitions, const QString &name)
{
    for (const Partition &p : partitions)
        if (p.name == name)
            return &p;
    return nullptr;
}

}  // namespace

class TestSlurmJobs : public QObject
{
    Q_OBJECT

    Fabric m_fabric;
    HeldTables m_held;
    const JobPKeyPool m_pool{0x2000, 0x2001};

    SlurmJob job(const QString &id, const QString &nodes, const QString &user = QStringLiteral("alice"))
    {
        return SlurmJob{id, user, nodes, IsolationPolicy::Default};
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::TinyFabric tiny = test::TinyFabric::oneSwitch(QStringLiteral("leaf"), 8,
                                                            {QStringLiteral("node01 HCA-1"), QStringLiteral("node02 HCA-1"), QStringLiteral("node03 HCA-1"),
                                                             QStringLiteral("node04 HCA-1"), QStringLiteral("MT4123 ConnectX6 Mellanox Technologies")});
        m_fabric = tiny.build();
        m_held.lfts = std::make_shared<ForwardingTables>();
    }

    void pool_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::addRow("range") << QStringLiteral("0x2000-0x2fff") << QString();
        QTest::addRow("one") << QStringLiteral("0x2000") << QString();
        QTest::addRow("runs down") << QStringLiteral("0x2fff-0x2000") << QStringLiteral("--job-pkeys: \"0x2fff-0x2000\": the range runs down");
        QTest::addRow("not numbers") << QStringLiteral("a-b") << QStringLiteral("--job-pkeys: \"a-b\": expected P_Keys FIRST-LAST");
        QTest::addRow("default") << QStringLiteral("0x7000-0x7fff") << QStringLiteral("the Default partition's P_Key");
        QTest::addRow("zero") << QStringLiteral("0-0x10") << QStringLiteral("0x0000 is no partition's P_Key");
    }
    void pool()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const Result<JobPKeyPool> pool = parseJobPKeyPool(text, QStringLiteral("--job-pkeys"));
        if (error.isEmpty()) {
            QVERIFY2(pool, qPrintable(pool ? QString() : pool.error().toString()));
            QCOMPARE(pool->first, std::uint16_t(0x2000));
        } else {
            QVERIFY(!pool);
            QVERIFY2(pool.error().toString().contains(error), qPrintable(pool.error().toString()));
        }
    }

    void startRepeatEnd()
    {
        PartitionsState inForce;
        const SlurmTopologyOptions naming;
        JobPartitionChange start = planJobStart(m_fabric, m_held, inForce, job(QStringLiteral("7"), QStringLiteral("node[01-02]")), m_pool, naming);
        QVERIFY2(start.refusal == JobPartitionChange::Refusal::None, qPrintable(start.why));
        QVERIFY(!start.unchanged);
        QCOMPARE(start.pkey, std::uint16_t(0x2000));
        QCOMPARE(start.ports, 2);
        QVERIFY2(start.summary.contains(QLatin1String("Slurm job 7 of user alice starts")), qPrintable(start.summary));
        QCOMPARE(start.plan.summary, start.summary);
        inForce.partitions = installed(start.plan);
        const Partition *mine = named(inForce.partitions, QStringLiteral("slurm_job_7"));
        QVERIFY(mine);
        QCOMPARE(*mine->pkey & kPKeyMask, 0x2000);
        QCOMPARE(mine->members.size(), std::size_t(2));
        for (const PartitionMember &m : mine->members)
            QCOMPARE(m.membership, Membership::Full);

        // The same job again: its P_Key, nothing to commit.
        const JobPartitionChange again = planJobStart(m_fabric, m_held, inForce, job(QStringLiteral("7"), QStringLiteral("node01,node02")), m_pool, naming);
        QVERIFY(again.unchanged);
        QCOMPARE(again.pkey, std::uint16_t(0x2000));

        // Another job: the next P_Key; then the pool is used up.
        const JobPartitionChange second = planJobStart(m_fabric, m_held, inForce, job(QStringLiteral("8"), QStringLiteral("node[03-04]"), QStringLiteral("bob")), m_pool, naming);
        QCOMPARE(second.pkey, std::uint16_t(0x2001));
        inForce.partitions = installed(second.plan);
        QVERIFY(named(inForce.partitions, QStringLiteral("slurm_job_7")));
        const JobPartitionChange third = planJobStart(m_fabric, m_held, inForce, job(QStringLiteral("9"), QStringLiteral("node01")), m_pool, naming);
        QCOMPARE(third.refusal, JobPartitionChange::Refusal::Conflict);
        QVERIFY2(third.why.contains(QLatin1String("every P_Key of the pool 0x2000-0x2001 is in use")), qPrintable(third.why));

        // The end of job 7: its partition out, job 8's kept; a second end changes nothing.
        const JobPartitionChange end = planJobEnd(m_fabric, m_held, inForce, QStringLiteral("7"), QStringLiteral("alice"));
        QVERIFY(!end.unchanged);
        QCOMPARE(end.pkey, std::uint16_t(0x2000));
        QVERIFY2(end.summary.contains(QLatin1String("Slurm job 7 of user alice ends")), qPrintable(end.summary));
        inForce.partitions = installed(end.plan);
        QVERIFY(!named(inForce.partitions, QStringLiteral("slurm_job_7")));
        QVERIFY(named(inForce.partitions, QStringLiteral("slurm_job_8")));
        QVERIFY(planJobEnd(m_fabric, m_held, inForce, QStringLiteral("7"), QStringLiteral("alice")).unchanged);
        // Its P_Key is free again.
        QCOMPARE(planJobStart(m_fabric, m_held, inForce, job(QStringLiteral("9"), QStringLiteral("node01")), m_pool, naming).pkey, std::uint16_t(0x2000));
    }

    void refusals()
    {
        const PartitionsState inForce;
        const SlurmTopologyOptions naming;
        const JobPartitionChange missing = planJobStart(m_fabric, m_held, inForce, job(QStringLiteral("1"), QStringLiteral("node[04-06]")), m_pool, naming);
        QCOMPARE(missing.refusal, JobPartitionChange::Refusal::Conflict);
        QVERIFY2(missing.why.startsWith(QLatin1String("2 of the job's hosts are not in the fabric as Slurm names its hosts: node[05-06]")), qPrintable(missing.why));
        const JobPartitionChange bad = planJobStart(m_fabric, m_held, inForce, job(QStringLiteral("1"), QStringLiteral("node[01-")), m_pool, naming);
        QCOMPARE(bad.refusal, JobPartitionChange::Refusal::BadRequest);
        QVERIFY2(bad.why.contains(QLatin1String("a '[' without its ']'")), qPrintable(bad.why));
        const JobPartitionChange unknownTables = planJobStart(m_fabric, HeldTables{}, inForce, job(QStringLiteral("1"), QStringLiteral("node01")), m_pool, naming);
        QCOMPARE(unknownTables.refusal, JobPartitionChange::Refusal::Conflict);

        // The body of PUT jobs/ID.
        QVERIFY(!slurmJobFromJson(QStringLiteral("12;rm"), QJsonObject{{QStringLiteral("nodes"), QStringLiteral("node01")}}, IsolationPolicy::Default));
        QVERIFY(!slurmJobFromJson(QStringLiteral("12"), QJsonObject{}, IsolationPolicy::Default));
        const Result<SlurmJob> policy = slurmJobFromJson(QStringLiteral("12"), QJsonObject{{QStringLiteral("nodes"), QStringLiteral("node01")}, {QStringLiteral("policy"), QStringLiteral("phy-isolation")}}, IsolationPolicy::Default);
        QVERIFY(policy);
        QCOMPARE(policy->policy, IsolationPolicy::Physical);
        const Result<SlurmJob> wrong = slurmJobFromJson(QStringLiteral("12"), QJsonObject{{QStringLiteral("nodes"), QStringLiteral("node01")}, {QStringLiteral("policy"), QStringLiteral("strict")}}, IsolationPolicy::Default);
        QVERIFY(!wrong);
        QVERIFY2(wrong.error().message.startsWith(QLatin1String("policy: \"strict\" is none of")), qPrintable(wrong.error().message));
    }

    // Named through the names map as `weft slurm topology --names` names them.
    void namesMap()
    {
        SlurmTopologyOptions naming;
        Result<SlurmNames> names = readSlurmNames("\"MT4123 ConnectX6 Mellanox Technologies\" gpu01\n", QStringLiteral("names.map"));
        QVERIFY(names);
        naming.names = *names;
        const JobPartitionChange start = planJobStart(m_fabric, m_held, PartitionsState{}, job(QStringLiteral("3"), QStringLiteral("gpu01,node04")), m_pool, naming);
        QVERIFY2(start.refusal == JobPartitionChange::Refusal::None, qPrintable(start.why));
        QCOMPARE(start.ports, 2);
    }
};

QTEST_GUILESS_MAIN(TestSlurmJobs)
#include "tst_slurm_jobs.moc"
