#include "CommitDestination.h"

#include "CommitPlanning.h"

namespace weft {

std::optional<PartitionsState> CommitDestination::partitionsInForce(const QString &master) const
{
    return partitionsOnTarget(planningTarget(master));
}

namespace {

CommitOptions withJournal(CommitOptions options, const QString &journal)
{
    if (options.journalPath.isEmpty())
        options.journalPath = journal;
    return options;
}

// One OpenSM, by its files: the -U dump (file engine) or the intent (Weft's engine inside it).
class OpenSmDestination final : public CommitDestination
{
public:
    explicit OpenSmDestination(CommitTarget target) : m_target(std::move(target)) {}

    Kind kind() const override { return m_target.pluginMode() ? Kind::OpenSmIntent : Kind::OpenSmFiles; }
    bool installsIntents() const override { return m_target.pluginMode(); }
    CommitTarget planningTarget(const QString &) const override { return m_target; }
    QString journalPath() const override { return defaultJournalPath(m_target.routingFile()); }

    CommitReport commit(const CommitPlan &plan, const CommitBackend &access, CommitOptions options) const override
    {
        return commitPlan(plan, m_target, access, withJournal(std::move(options), journalPath()));
    }

    CommitReport recover(const CommitBackend &access, CommitOptions options) const override
    {
        return recoverCommit(m_target, access, withJournal(std::move(options), journalPath()));
    }

    std::optional<CommitJournalEntry> unfinished() const override
    {
        const Result<std::vector<CommitJournalEntry>> entries = readJournal(journalPath());
        return entries ? unfinishedCommit(*entries, m_target.routingFile()) : std::nullopt;
    }

private:
    CommitTarget m_target;
};

// Every SM of a subnet: each commit through the SM it finds master, the others by their files.
class SubnetDestination final : public CommitDestination
{
public:
    explicit SubnetDestination(SubnetTarget subnet) : m_subnet(std::move(subnet)) {}

    Kind kind() const override { return Kind::Subnet; }
    bool installsIntents() const override { return m_subnet.pluginMode(); }

    CommitTarget planningTarget(const QString &master) const override
    {
        const SubnetManagerEntry *entry = master.isEmpty() ? nullptr : m_subnet.byName(master);
        CommitTarget target = (entry ? *entry : m_subnet.sms.front()).commitTarget();
        target.subnet = m_subnet.subnet;
        target.lockPath = m_subnet.fileName + QStringLiteral(".weft-lock");  // as subnetCommitTarget's
        return target;
    }

    QString journalPath() const override { return subnetJournalPath(m_subnet); }

    CommitReport commit(const CommitPlan &plan, const CommitBackend &access, CommitOptions options) const override
    {
        return commitToSubnet(plan, m_subnet, access, withJournal(std::move(options), journalPath()));
    }

    CommitReport recover(const CommitBackend &access, CommitOptions options) const override
    {
        return recoverSubnetCommit(m_subnet, access, withJournal(std::move(options), journalPath()));
    }

    std::optional<CommitJournalEntry> unfinished() const override
    {
        const Result<std::vector<CommitJournalEntry>> entries = readJournal(journalPath());
        if (!entries)
            return std::nullopt;
        // The subnet's own commits by its name, whichever SM was master; a commit to one of its
        // OpenSMs alone by the files it wrote.
        QStringList files;
        for (const SubnetManagerEntry &e : m_subnet.sms)
            files << e.routingFile() << e.partitionsPath;
        return unfinishedCommit(*entries, m_subnet.sms.front().routingFile(), m_subnet.subnet, files);
    }

private:
    SubnetTarget m_subnet;
};

// A remote fabric's service: it plans, commits, journals and recovers on its own side.
class ServiceDestination final : public CommitDestination
{
public:
    explicit ServiceDestination(RemoteTarget remote) : m_remote(std::move(remote)) {}

    Kind kind() const override { return Kind::Service; }
    bool installsIntents() const override { return m_remote.pluginMode; }
    CommitTarget planningTarget(const QString &) const override { return {}; }
    std::optional<PartitionsState> partitionsInForce(const QString &) const override { return std::nullopt; }
    QString journalPath() const override { return {}; }
    bool readsBack() const override { return false; }

    CommitReport commit(const CommitPlan &plan, const CommitBackend &, CommitOptions options) const override
    {
        return m_remote.commit(plan, options);
    }

    CommitReport recover(const CommitBackend &, CommitOptions options) const override
    {
        if (m_remote.recover)
            return m_remote.recover(std::move(options));
        CommitReport report;
        report.outcome = CommitOutcome::Refused;
        report.reasons << QStringLiteral("the fabric service recovers its own commits (weft commit --recover on its host)");
        return report;
    }

    std::optional<CommitJournalEntry> unfinished() const override
    {
        return m_remote.unfinished ? m_remote.unfinished() : std::nullopt;
    }

private:
    RemoteTarget m_remote;
};

}  // namespace

std::shared_ptr<const CommitDestination> commitDestination(const CommitTarget &target)
{
    if (target.routingFile().isEmpty())
        return nullptr;
    return std::make_shared<const OpenSmDestination>(target);
}

std::shared_ptr<const CommitDestination> commitDestination(const SubnetTarget &subnet)
{
    if (subnet.sms.empty())
        return nullptr;
    return std::make_shared<const SubnetDestination>(subnet);
}

std::shared_ptr<const CommitDestination> commitDestination(const RemoteTarget &remote)
{
    return std::make_shared<const ServiceDestination>(remote);
}

}  // namespace weft
