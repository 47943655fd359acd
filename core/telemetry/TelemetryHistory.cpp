#include "TelemetryHistory.h"

#include "SafeFile.h"

#include <QFileInfo>
#include <QIODevice>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <tuple>

namespace weft {

namespace {

const QString kFormat = QStringLiteral("weft-telemetry 1");

std::atomic<int> g_connectionNumber{0};

QVariant nullable(const CounterRate &rate)
{
    return rate.ok() ? QVariant(rate.value) : QVariant(QMetaType(QMetaType::Double));
}

CounterRate rateFrom(const QVariant &value, CounterGap gap)
{
    if (value.isNull())
        return {0, gap == CounterGap::None ? CounterGap::NoAnswer : gap};
    return {value.toDouble(), CounterGap::None};
}

CounterGap gapFromName(const QString &name)
{
    for (CounterGap gap : {CounterGap::NoAnswer, CounterGap::Cleared, CounterGap::Saturated, CounterGap::NoInterval,
                           CounterGap::Implausible, CounterGap::Unsupported})
        if (counterGapName(gap) == name)
            return gap;
    return CounterGap::None;
}

}  // namespace

QString fabricHistoryId(const Fabric &fabric)
{
    Guid lowest = 0;
    for (const Node &n : fabric.nodes())
        if (lowest == 0 || (n.guid != 0 && n.guid < lowest))
            lowest = n.guid;
    return guidDigits(lowest);
}

Result<QString> telemetryHistoryFabric(const QString &path)
{
    const QString connection = QStringLiteral("weft-telemetry-%1").arg(g_connectionNumber.fetch_add(1));
    Result<QString> id = Error{path, 0, QStringLiteral("not a telemetry history (no fabric recorded in it)")};
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'fabric'")) && q.next())
                id = q.value(0).toString();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(connection);
    return id;
}

TelemetryHistory::TelemetryHistory(QString path, QString connection, TelemetryHistoryOptions options)
    : m_path(std::move(path)), m_connection(std::move(connection)), m_options(options)
{
}

TelemetryHistory::~TelemetryHistory()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

Error TelemetryHistory::error(const QString &message) const
{
    return Error{m_path, 0, message};
}

Result<std::unique_ptr<TelemetryHistory>> TelemetryHistory::open(const QString &path, const QString &fabricId,
                                                                 TelemetryHistoryOptions options)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return Error{path, 0, QStringLiteral("Qt's SQLite driver is not installed (Debian: libqt6sql6-sqlite)")};
    if (!(options.rawWindowSeconds >= 0) || options.bucketSeconds < 1)
        return Error{path, 0, QStringLiteral("the raw window must be at least 0 s and a bucket at least 1 s")};
    const QString connection = QStringLiteral("weft-telemetry-%1").arg(g_connectionNumber.fetch_add(1));
    std::unique_ptr<TelemetryHistory> history(new TelemetryHistory(path, connection, options));
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
    db.setDatabaseName(path);
    if (!db.open())
        return history->error(QStringLiteral("cannot open the telemetry history: %1").arg(db.lastError().text()));

    QSqlQuery q(db);
    const QStringList schema = {
        QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS raw (time REAL NOT NULL, guid INTEGER NOT NULL, port INTEGER NOT NULL, "
                       "lid INTEGER NOT NULL, xmit REAL, rcv REAL, wait REAL, util REAL, gap TEXT)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS raw_time ON raw (time)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS bucket (time INTEGER NOT NULL, guid INTEGER NOT NULL, port INTEGER NOT NULL, "
                       "samples INTEGER NOT NULL, xmit REAL, xmit_max REAL, rcv REAL, rcv_max REAL, wait REAL, wait_max REAL, "
                       "util REAL, util_max REAL, PRIMARY KEY (time, guid, port))"),
    };
    for (const QString &statement : schema)
        if (!q.exec(statement))
            return history->error(QStringLiteral("not a telemetry history, or not writable: %1").arg(q.lastError().text()));

    std::map<QString, QString> meta;
    if (!q.exec(QStringLiteral("SELECT key, value FROM meta")))
        return history->error(q.lastError().text());
    while (q.next())
        meta[q.value(0).toString()] = q.value(1).toString();
    if (meta.count(QStringLiteral("format")) && meta[QStringLiteral("format")] != kFormat)
        return history->error(QStringLiteral("a telemetry history of another format (\"%1\"); Weft writes \"%2\"")
                                  .arg(meta[QStringLiteral("format")], kFormat));
    if (meta.count(QStringLiteral("fabric")) && meta[QStringLiteral("fabric")] != fabricId)
        return history->error(QStringLiteral("the history of another fabric (%1, this one is %2): use one file per fabric")
                                  .arg(meta[QStringLiteral("fabric")], fabricId));
    if (meta.empty()) {
        q.prepare(QStringLiteral("INSERT INTO meta (key, value) VALUES (?, ?)"));
        for (const auto &[key, value] : {std::pair{QStringLiteral("format"), kFormat}, std::pair{QStringLiteral("fabric"), fabricId}}) {
            q.addBindValue(key);
            q.addBindValue(value);
            if (!q.exec())
                return history->error(q.lastError().text());
        }
    }
    return history;
}

Status TelemetryHistory::record(const std::vector<TelemetryRecord> &records)
{
    if (records.empty())
        return Done{};
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    if (!db.transaction())
        return error(db.lastError().text());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT INTO raw (time, guid, port, lid, xmit, rcv, wait, util, gap) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    double newest = 0;
    for (const TelemetryRecord &r : records) {
        q.addBindValue(r.time);
        q.addBindValue(qint64(r.guid));
        q.addBindValue(r.port);
        q.addBindValue(int(r.lid));
        q.addBindValue(nullable(r.rates.xmitBytes));
        q.addBindValue(nullable(r.rates.rcvBytes));
        q.addBindValue(nullable(r.rates.xmitWait));
        q.addBindValue(nullable(r.rates.utilisation));
        const CounterGap gap = r.rates.firstGap();
        q.addBindValue(gap == CounterGap::None ? QVariant(QMetaType(QMetaType::QString)) : QVariant(counterGapName(gap)));
        if (!q.exec()) {
            const QString message = q.lastError().text();
            db.rollback();
            return error(QStringLiteral("cannot record a tick: %1").arg(message));
        }
        newest = std::max(newest, r.time);
    }
    if (!db.commit())
        return error(db.lastError().text());
    return downsample(newest);
}

Status TelemetryHistory::downsample(double newest)
{
    // Whole buckets only: a bucket is folded once, when all of it has left the window.
    const double bucket = m_options.bucketSeconds;
    const double cutoff = std::floor((newest - m_options.rawWindowSeconds) / bucket) * bucket;
    if (cutoff <= 0)
        return Done{};
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    if (!db.transaction())
        return error(db.lastError().text());
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT OR REPLACE INTO bucket (time, guid, port, samples, xmit, xmit_max, rcv, rcv_max, wait, wait_max, util, util_max) "
        "SELECT CAST(time / :b AS INTEGER) * :b, guid, port, count(*), avg(xmit), max(xmit), avg(rcv), max(rcv), avg(wait), "
        "max(wait), avg(util), max(util) FROM raw WHERE time < :cutoff GROUP BY CAST(time / :b AS INTEGER), guid, port"));
    q.bindValue(QStringLiteral(":b"), m_options.bucketSeconds);
    q.bindValue(QStringLiteral(":cutoff"), cutoff);
    QSqlQuery drop(db);
    drop.prepare(QStringLiteral("DELETE FROM raw WHERE time < ?"));
    drop.addBindValue(cutoff);
    QSqlQuery expire(db);
    expire.prepare(QStringLiteral("DELETE FROM bucket WHERE time < ?"));
    expire.addBindValue(m_options.bucketWindowSeconds > 0 ? newest - m_options.bucketWindowSeconds : -1.0);
    if (!q.exec() || !drop.exec() || !expire.exec()) {
        const QString message = q.lastError().isValid() ? q.lastError().text()
            : drop.lastError().isValid()                ? drop.lastError().text()
                                                        : expire.lastError().text();
        db.rollback();
        return error(QStringLiteral("cannot downsample: %1").arg(message));
    }
    if (!db.commit())
        return error(db.lastError().text());
    return Done{};
}

Result<std::vector<HistoryPoint>> TelemetryHistory::read(double from, double to, std::optional<Guid> guid, int port) const
{
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    const QString onePort = guid ? QStringLiteral(" AND guid = :guid AND port = :port") : QString();
    std::vector<HistoryPoint> points;

    QSqlQuery raw(db);
    raw.prepare(QStringLiteral("SELECT time, guid, port, xmit, rcv, wait, util, gap FROM raw WHERE time >= :from AND time <= :to")
                + onePort);
    QSqlQuery buckets(db);
    buckets.prepare(QStringLiteral("SELECT time, guid, port, samples, xmit, xmit_max, rcv, rcv_max, wait, wait_max, util, util_max "
                                   "FROM bucket WHERE time >= :from AND time <= :to")
                    + onePort);
    for (QSqlQuery *q : {&raw, &buckets}) {
        q->bindValue(QStringLiteral(":from"), from);
        q->bindValue(QStringLiteral(":to"), to);
        if (guid) {
            q->bindValue(QStringLiteral(":guid"), qint64(*guid));
            q->bindValue(QStringLiteral(":port"), port);
        }
        if (!q->exec())
            return error(QStringLiteral("cannot read the history: %1").arg(q->lastError().text()));
    }
    while (raw.next()) {
        HistoryPoint p;
        p.time = raw.value(0).toDouble();
        p.guid = Guid(raw.value(1).toLongLong());
        p.port = raw.value(2).toInt();
        const CounterGap gap = gapFromName(raw.value(7).toString());
        p.xmitBytes = p.xmitBytesMax = rateFrom(raw.value(3), gap);
        p.rcvBytes = p.rcvBytesMax = rateFrom(raw.value(4), gap);
        p.xmitWait = p.xmitWaitMax = rateFrom(raw.value(5), gap);
        p.utilisation = p.utilisationMax = rateFrom(raw.value(6), gap);
        points.push_back(p);
    }
    while (buckets.next()) {
        HistoryPoint p;
        p.time = buckets.value(0).toDouble();
        p.guid = Guid(buckets.value(1).toLongLong());
        p.port = buckets.value(2).toInt();
        p.downsampled = true;
        p.samples = buckets.value(3).toInt();
        p.xmitBytes = rateFrom(buckets.value(4), CounterGap::None);
        p.xmitBytesMax = rateFrom(buckets.value(5), CounterGap::None);
        p.rcvBytes = rateFrom(buckets.value(6), CounterGap::None);
        p.rcvBytesMax = rateFrom(buckets.value(7), CounterGap::None);
        p.xmitWait = rateFrom(buckets.value(8), CounterGap::None);
        p.xmitWaitMax = rateFrom(buckets.value(9), CounterGap::None);
        p.utilisation = rateFrom(buckets.value(10), CounterGap::None);
        p.utilisationMax = rateFrom(buckets.value(11), CounterGap::None);
        points.push_back(p);
    }
    std::sort(points.begin(), points.end(), [](const HistoryPoint &a, const HistoryPoint &b) {
        return std::tie(a.time, a.guid, a.port) < std::tie(b.time, b.guid, b.port);
    });
    return points;
}

Status TelemetryHistory::exportCsv(const QString &path) const
{
    Result<std::vector<HistoryPoint>> points = read(-1e300, 1e300);
    if (!points)
        return points.error();
    return writeFileAtomically(path, [&](QIODevice &out) {
        if (out.write(telemetryCsvHeader()) < 0)
            return false;
        for (const HistoryPoint &p : *points)
            if (out.write(telemetryCsvRow(p.time, p.guid, p.port, p.xmitBytes, p.rcvBytes, p.xmitWait, p.utilisation)) < 0)
                return false;
        return true;
    });
}

}  // namespace weft
