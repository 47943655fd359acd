#include "CommitTargetSettings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace weft {

namespace {

const QString kLftsKey = QStringLiteral("commit/lftsPath");
const QString kIntentKey = QStringLiteral("commit/intentPath");
const QString kPartitionsKey = QStringLiteral("commit/partitionsPath");
const QString kPidKey = QStringLiteral("commit/pidFile");
const QString kLogKey = QStringLiteral("commit/logPath");
const QString kOptionsKey = QStringLiteral("commit/optionsPath");
const QString kSubnetTargetKey = QStringLiteral("commit/subnetTargetPath");

}  // namespace

CommitTarget configuredCommitTarget()
{
    QSettings settings;
    CommitTarget target;
    target.lftsPath = settings.value(kLftsKey).toString();
    target.intentPath = settings.value(kIntentKey).toString();
    target.partitionsPath = settings.value(kPartitionsKey).toString();
    target.pidFile = settings.value(kPidKey).toString();
    target.logPath = settings.value(kLogKey).toString();
    target.optionsPath = settings.value(kOptionsKey).toString();
    const QString lab = qEnvironmentVariable("WEFT_LAB_DIR");
    if (target.routingFile().isEmpty() && !lab.isEmpty()) {
        // Under `weft lab --gui` the lab's OpenSM is the target unless the operator chose another:
        // Weft's engine inside it routes the lab's intent, or (--file-engine) it loads the dump.
        const QDir dir(lab);
        if (QFileInfo::exists(dir.filePath(QStringLiteral("weft-intent.json"))))
            target.intentPath = dir.filePath(QStringLiteral("weft-intent.json"));
        else
            target.lftsPath = dir.filePath(QStringLiteral("opensm.lfts"));
        target.partitionsPath = dir.filePath(QStringLiteral("partitions.conf"));
        target.pidFile = dir.filePath(QStringLiteral("opensm.pid"));
        target.logPath = qEnvironmentVariable("WEFT_LAB_OPENSM_LOG");
        target.optionsPath = qEnvironmentVariable("WEFT_LAB_OPENSM_OPTIONS");
    }
    return target;
}

void saveCommitTarget(const CommitTarget &target)
{
    QSettings settings;
    settings.setValue(kLftsKey, target.lftsPath);
    settings.setValue(kIntentKey, target.intentPath);
    settings.setValue(kPartitionsKey, target.partitionsPath);
    settings.setValue(kPidKey, target.pidFile);
    settings.setValue(kLogKey, target.logPath);
    settings.setValue(kOptionsKey, target.optionsPath);
}

QString configuredSubnetTargetPath()
{
    QSettings settings;
    const QString path = settings.value(kSubnetTargetKey).toString();
    // Under `weft lab --standby` the lab's subnet (its master and standby OpenSMs) is the target
    // unless the operator chose one.
    if (path.isEmpty() && settings.value(kLftsKey).toString().isEmpty() && settings.value(kIntentKey).toString().isEmpty())
        return qEnvironmentVariable("WEFT_LAB_SUBNET_TARGET");
    return path;
}

void saveSubnetTargetPath(const QString &path)
{
    QSettings settings;
    if (path.isEmpty())
        settings.remove(kSubnetTargetKey);
    else
        settings.setValue(kSubnetTargetKey, path);
}

}  // namespace weft
