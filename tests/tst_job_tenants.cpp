// Slurm's jobs on the desk (issue 47): GET jobs as the service writes it and the desk reads it
// back, and the jobs shown as tenants in the Partitions panel: marked as jobs, read-only (no
// drag), their hosts listed, a job chosen told to the window with its ports.

#include "FabricDocument.h"
#include "JobPartitions.h"
#include "PartitionPanel.h"
#include "TenantListModel.h"
#include "TinyFabric.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTreeView>
#include <QtTest>

#include <memory>

using namespace weft;

namespace {

using Lab = test::FiveHostSwitch;

Partition jobPartition(const QString &name, std::uint16_t pkey, const std::vector<Guid> &ports)
{
    Partition p;
    p.name = name;
    p.pkey = pkey;
    for (Guid g : ports) {
        PartitionMember m;
        m.guid = g;
        m.membership = Membership::Full;
        p.members.push_back(m);
    }
    return p;
}

}  // namespace

class TestJobTenants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void serviceAnswerReadBack()
    {
        Lab lab;
        PartitionsState inForce;
        inForce.partitions.push_back(jobPartition(QStringLiteral("other"), 0x0010, {lab.port("h1")}));
        inForce.partitions.push_back(jobPartition(jobPartitionName(QStringLiteral("77")), 0x2000, {lab.port("h4"), lab.port("h5")}));
        inForce.partitions.push_back(jobPartition(jobPartitionName(QStringLiteral("78")), 0x2001, {lab.port("h2")}));
        const QDateTime started = QDateTime(QDate(2026, 12, 7), QTime(10, 30), Qt::UTC);
        const std::map<QString, JobStartRecord> records{{QStringLiteral("77"), {QStringLiteral("alice"), IsolationPolicy::Physical, started}}};
        const QJsonObject answer = jobsInForceJson(inForce, lab.fabric.get(), SlurmTopologyOptions{}, records);
        const QJsonArray listed = answer.value(QStringLiteral("jobs")).toArray();
        QCOMPARE(listed.size(), 2);  // "other" is no job's
        const QJsonObject first = listed.at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("hosts")).toArray(), (QJsonArray{QStringLiteral("h4"), QStringLiteral("h5")}));
        QCOMPARE(first.value(QStringLiteral("user")).toString(), QStringLiteral("alice"));
        QCOMPARE(first.value(QStringLiteral("policy")).toString(), QStringLiteral("phy-isolation"));
        QCOMPARE(first.value(QStringLiteral("started")).toString(), QStringLiteral("2026-12-07T10:30:00Z"));

        const Result<std::vector<JobTenant>> jobs = jobTenantsFromJson(answer);
        QVERIFY2(jobs, jobs ? "" : qPrintable(jobs.error().toString()));
        QCOMPARE(jobs->size(), std::size_t(2));
        const JobTenant &job = jobs->front();
        QCOMPARE(job.id, QStringLiteral("77"));
        QCOMPARE(job.pkey, std::uint16_t(0x2000));
        QCOMPARE(job.ports, (std::vector<Guid>{lab.port("h4"), lab.port("h5")}));
        QCOMPARE(job.started, started);
        // A job the service did not start (it was restarted since): no user, policy or time.
        QVERIFY(jobs->back().user.isEmpty() && !jobs->back().started.isValid());
        QCOMPARE(jobs->back().hosts, QStringList{QStringLiteral("h2")});

        // What cannot be read is said, with the job and the field.
        QJsonObject bad = answer;
        QJsonArray badJobs = listed;
        QJsonObject badJob = first;
        badJob.insert(QStringLiteral("port_guids"), QJsonArray{QStringLiteral("0xnothex")});
        badJobs.replace(0, badJob);
        bad.insert(QStringLiteral("jobs"), badJobs);
        const Result<std::vector<JobTenant>> refused = jobTenantsFromJson(bad);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("job 77: port_guids")), qPrintable(refused.error().message));
    }

    void jobsAreReadOnlyTenants()
    {
        Lab lab;
        FabricDocument doc;
        Tenancy tenancy;
        tenancy.tenants.push_back({QStringLiteral("chemistry"), {lab.port("h1"), lab.port("h2")}});
        doc.reset(lab.fabric, tenancy, QStringLiteral("lab"));
        PartitionPanel panel(&doc);
        TenantListModel *model = panel.tenantModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 2);  // the tenant and the hosts without one

        JobTenant job;
        job.id = QStringLiteral("77");
        job.partition = jobPartitionName(job.id);
        job.pkey = 0x2000;
        job.user = QStringLiteral("alice");
        job.hosts = QStringList{QStringLiteral("h4"), QStringLiteral("h5")};
        job.ports = {lab.port("h4"), lab.port("h5"), 0x1234};  // a port the picture lacks is not listed
        panel.setServiceJobs({job});
        QCOMPARE(model->rowCount(), 3);
        const QModelIndex row = model->indexOfJob(QStringLiteral("77"));
        QVERIFY(row.isValid());
        QCOMPARE(model->data(row).toString(), QStringLiteral("Slurm job 77 (alice)"));
        QCOMPARE(model->data(row.siblingAtColumn(TenantListModel::DetailColumn)).toString(), QStringLiteral("2 host(s), 0x2000"));
        QVERIFY2(model->data(row, Qt::ToolTipRole).toString().contains(QStringLiteral("follows the job")), qPrintable(model->data(row, Qt::ToolTipRole).toString()));
        QCOMPARE(model->rowCount(row), 2);
        QCOMPARE(model->data(model->index(0, 0, row)).toString(), QStringLiteral("h4"));
        QCOMPARE(model->data(model->index(0, 0, row), TenantListModel::JobRole).toString(), QStringLiteral("77"));
        // Read-only: neither the job nor its hosts are dragged; the hosts are no longer loose.
        QVERIFY(!(model->flags(row) & Qt::ItemIsDragEnabled));
        QVERIFY(!(model->flags(model->index(1, 0, row)) & Qt::ItemIsDragEnabled));
        QVERIFY(!model->mimeData({row}));
        QCOMPARE(model->portsAt(model->indexOfTenant(QString())), (std::vector<Guid>{lab.port("h3")}));
        // Partition edits leave the job's row alone.
        QVERIFY(doc.createPartition(QStringLiteral("chem"), 0x10).ok());
        QVERIFY(model->indexOfJob(QStringLiteral("77")).isValid());

        // Chosen in the tree: the window hears the job and its ports; chosen no more, it hears that.
        QSignalSpy chosen(&panel, &PartitionPanel::jobChosen);
        panel.tenantView()->selectionModel()->select(model->indexOfJob(QStringLiteral("77")), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).toString(), QStringLiteral("77"));
        QCOMPARE(chosen.at(0).at(1).value<std::vector<Guid>>(), job.ports);
        panel.tenantView()->selectionModel()->select(model->indexOfTenant(QStringLiteral("chemistry")), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(chosen.count(), 2);
        QVERIFY(chosen.at(1).at(0).toString().isEmpty());

        // The job chosen ends: its row goes, and the window hears it is chosen no more.
        panel.tenantView()->selectionModel()->select(model->indexOfJob(QStringLiteral("77")), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(chosen.count(), 3);
        panel.setServiceJobs({});
        QCOMPARE(model->rowCount(), 2);
        QVERIFY(!model->indexOfJob(QStringLiteral("77")).isValid());
        QCOMPARE(chosen.count(), 4);
        QVERIFY(chosen.at(3).at(0).toString().isEmpty());
        QVERIFY(panel.chosenJob().isEmpty());
    }
};

QTEST_MAIN(TestJobTenants)
#include "tst_job_tenants.moc"
