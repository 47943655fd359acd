#pragma once
// Where `weft commit` installs, as its options name it: a subnet's target file (--target) or one
// OpenSM's files (--opensm-*, addCommitTargetOptions). The commands that commit as it does
// (`weft drain`, `weft undrain`) take the same options through these functions.

#include "CliSupport.h"
#include "SubnetTarget.h"

#include <QCommandLineParser>

#include <optional>

namespace weft {
class FabricSession;
}

namespace weft::cli {

// addCommitTargetOptions and --target FILE.
void addCommitDestinationOptions(QCommandLineParser &parser);

struct CommitDestinationChoice
{
    std::optional<SubnetTarget> subnet;  // --target
    CommitTargetOptions target;          // the --opensm-* options, journal, timeout, adapter, ...

    bool pluginMode() const { return subnet ? subnet->pluginMode() : target.target.pluginMode(); }
    // The intent OpenSM's engine reads (plugin mode; with --target the first SM's: every SM's holds
    // the same) and the partitions.conf in force.
    QString intentPath() const { return subnet ? subnet->sms.front().intentPath : target.target.intentPath; }
    QString partitionsPath() const { return subnet ? subnet->sms.front().partitionsPath : target.target.partitionsPath; }
};

// The options read; an error naming the option when one is not valid or --target comes with an
// --opensm-* option. Required --opensm-* options are the command's to check.
Result<CommitDestinationChoice> readCommitDestinationOptions(const QCommandLineParser &parser);

// The session's commit target set from `choice`; with --target and no --journal, the journal is
// the subnet's, beside the target file (`options->journalPath` cleared).
void setCommitDestination(FabricSession &session, const QCommandLineParser &parser, CommitDestinationChoice choice,
                          CommitOptions *options);

// A commit's report as `weft commit` prints it (text, or JSON with `json`); the exit status for
// its outcome.
int reportCommitOutcome(const CommitReport &report, bool json);

}  // namespace weft::cli
