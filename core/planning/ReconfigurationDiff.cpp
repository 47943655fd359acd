#include "ReconfigurationDiff.h"

#include <QJsonArray>

#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_set>

namespace weft {

namespace {

// The 64 entries of `block`, padded with "no route" where the stored table ends.
const std::uint8_t *blockData(const std::vector<std::uint8_t> &entries, int block,
                              std::array<std::uint8_t, kLftBlockSize> &scratch)
{
    const std::size_t begin = std::size_t(block) * kLftBlockSize;
    if (begin + kLftBlockSize <= entries.size())
        return entries.data() + begin;
    scratch.fill(kNoRoute);
    if (begin < entries.size())
        std::memcpy(scratch.data(), entries.data() + begin, entries.size() - begin);
    return scratch.data();
}

QStringList splitLines(const QByteArray &text)
{
    QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

}  // namespace

ReconfigurationDiff diffForwardingTables(const ForwardingTables &from, const ForwardingTables &to,
                                         const Fabric *fabric, const ReconfigurationDiffOptions &options)
{
    ReconfigurationDiff diff;
    static const LinearForwardingTable empty;

    // The switches to visit: those of `to`, then those only `from` has.
    std::vector<const SwitchForwardingTable *> order;
    order.reserve(to.size() + from.size());
    for (const SwitchForwardingTable &sw : to.switches())
        order.push_back(&sw);
    for (const SwitchForwardingTable &sw : from.switches())
        if (!to.contains(sw.guid))
            order.push_back(&sw);

    Lid maxLid = 0;
    if (fabric) {
        maxLid = fabric->maxLid();
    } else {
        for (const SwitchForwardingTable *sw : order) {
            const SwitchForwardingTable *a = from.find(sw->guid);
            const SwitchForwardingTable *b = to.find(sw->guid);
            maxLid = std::max({maxLid, a ? a->lft.top() : Lid(0), b ? b->lft.top() : Lid(0)});
        }
    }
    const int blocks = maxLid / kLftBlockSize + 1;
    const Lid topFrom = options.linearFdbTopFrom ? options.linearFdbTopFrom : maxLid;
    const Lid topTo = options.linearFdbTopTo ? options.linearFdbTopTo : maxLid;

    std::array<std::uint8_t, kLftBlockSize> scratchA{}, scratchB{};
    for (const SwitchForwardingTable *sw : order) {
        if (fabric) {
            const NodeIndex node = fabric->nodeByGuid(sw->guid);
            if (node == kNoIndex || fabric->node(node).type != NodeType::Switch) {
                diff.warnings << QStringLiteral("switch %1 is not a switch of the fabric; not compared").arg(guidText(sw->guid));
                continue;
            }
        }
        const SwitchForwardingTable *a = from.find(sw->guid);
        const SwitchForwardingTable *b = to.find(sw->guid);
        const LinearForwardingTable &lftA = a ? a->lft : empty;
        const LinearForwardingTable &lftB = b ? b->lft : empty;
        SwitchLftChange change;
        change.guid = sw->guid;
        change.lid = b && b->lid ? b->lid : (a ? a->lid : Lid(0));
        change.description = b && !b->description.isEmpty() ? b->description : (a ? a->description : QString());
        change.topFrom = lftA.top();
        change.topTo = lftB.top();
        change.switchInfoSet = topFrom != topTo;
        for (int block = 0; block < blocks; ++block) {
            const std::uint8_t *x = blockData(lftA.entries(), block, scratchA);
            const std::uint8_t *y = blockData(lftB.entries(), block, scratchB);
            if (std::memcmp(x, y, kLftBlockSize) == 0) {
                if (options.fullPush)
                    change.changedBlocks.push_back(block);
                continue;
            }
            for (int i = 0; i < kLftBlockSize; ++i)
                change.changedEntries += x[i] != y[i];
            change.changedBlocks.push_back(block);
        }
        if (change.changedBlocks.empty() && !change.switchInfoSet && change.changedEntries == 0)
            continue;
        diff.changedEntries += change.changedEntries;
        diff.changedBlocks += (long long)change.changedBlocks.size();
        diff.switchInfoSets += change.switchInfoSet;
        diff.switches.push_back(std::move(change));
    }
    if (fabric) {
        // Fabric switches that neither side lists hold no routes either way, but a full push
        // still writes them.
        if (options.fullPush || topFrom != topTo)
            for (NodeIndex n : fabric->switches()) {
                const Guid guid = fabric->node(n).guid;
                if (from.contains(guid) || to.contains(guid))
                    continue;
                SwitchLftChange change;
                change.guid = guid;
                change.lid = fabric->nodeLid(n);
                change.description = fabric->node(n).description;
                change.switchInfoSet = topFrom != topTo;
                if (options.fullPush)
                    for (int block = 0; block < blocks; ++block)
                        change.changedBlocks.push_back(block);
                diff.changedBlocks += (long long)change.changedBlocks.size();
                diff.switchInfoSets += change.switchInfoSet;
                diff.switches.push_back(std::move(change));
            }
    }
    return diff;
}

void addPKeyDiff(ReconfigurationDiff &diff, const Fabric &fabric, const PKeyTables &from, const PKeyTables &to)
{
    static const std::vector<std::uint16_t> emptyBlock(kPKeyBlockSize, 0);
    auto blockOf = [](const PortPKeyTable *t, int block) {
        std::vector<std::uint16_t> out(kPKeyBlockSize, 0);
        if (t && block < t->blockCount())
            std::copy_n(t->entries.begin() + block * kPKeyBlockSize, kPKeyBlockSize, out.begin());
        return out;
    };
    for (const PortPKeyTable &next : to.ports()) {
        const PortPKeyTable *was = from.find(next.port);
        // A switch port facing a CA is sent only the blocks its packed table fills; an endpoint
        // port is compared over every block it holds.
        const int blocks = next.packed ? next.blockCount() : std::max(next.blockCount(), was ? was->blockCount() : 0);
        const Port &port = fabric.port(next.port);
        for (int block = 0; block < blocks; ++block) {
            std::vector<std::uint16_t> a = blockOf(was, block);
            std::vector<std::uint16_t> b = blockOf(&next, block);
            // A port never configured holds nothing OpenSM knows of: every block is sent.
            if (was && a == b)
                continue;
            PKeyBlockChange change;
            change.nodeGuid = fabric.node(port.node).guid;
            change.portNumber = port.number;
            change.description = fabric.node(port.node).description;
            change.block = block;
            change.from = std::move(a);
            change.to = std::move(b);
            diff.pkeyBlocks.push_back(std::move(change));
        }
    }
}

QString unifiedDiff(const QByteArray &fromText, const QByteArray &toText, const QString &fromName, const QString &toName)
{
    if (fromText == toText)
        return {};
    const QStringList a = splitLines(fromText);
    const QStringList b = splitLines(toText);
    int prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    int suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
           && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const int n = int(a.size()) - prefix - suffix;
    const int m = int(b.size()) - prefix - suffix;

    // Edit script over the middle: ' ' keep, '-' remove, '+' add, with the line index.
    struct Op { char kind; int line; };
    std::vector<Op> ops;
    for (int i = 0; i < prefix; ++i)
        ops.push_back({' ', i});
    if (std::int64_t(n) * m <= 4'000'000) {
        // Longest common subsequence; the middle of a partitions.conf diff is small.
        std::vector<std::vector<int>> lcs(std::size_t(n + 1), std::vector<int>(std::size_t(m + 1), 0));
        for (int i = n - 1; i >= 0; --i)
            for (int j = m - 1; j >= 0; --j)
                lcs[i][j] = a[prefix + i] == b[prefix + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
        int i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
                ops.push_back({' ', prefix + i});
                ++i, ++j;
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                ops.push_back({'-', prefix + i++});
            } else {
                ops.push_back({'+', prefix + j++});
            }
        }
    } else {
        for (int i = 0; i < n; ++i)
            ops.push_back({'-', prefix + i});
        for (int j = 0; j < m; ++j)
            ops.push_back({'+', prefix + j});
    }
    for (int i = 0; i < suffix; ++i)
        ops.push_back({' ', int(a.size()) - suffix + i});

    // Line numbers in both texts for each op, then hunks with three lines of context.
    std::vector<int> lineA(ops.size()), lineB(ops.size());
    int la = 0, lb = 0;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        lineA[k] = la;
        lineB[k] = lb;
        if (ops[k].kind != '+')
            ++la;
        if (ops[k].kind != '-')
            ++lb;
    }
    QString out = QStringLiteral("--- %1\n+++ %2\n").arg(fromName, toName);
    constexpr int kContext = 3;
    std::size_t k = 0;
    while (k < ops.size()) {
        while (k < ops.size() && ops[k].kind == ' ')
            ++k;
        if (k == ops.size())
            break;
        const std::size_t start = k >= kContext ? k - kContext : 0;
        std::size_t end = k;
        int quiet = 0;
        while (end < ops.size() && quiet <= 2 * kContext) {
            quiet = ops[end].kind == ' ' ? quiet + 1 : 0;
            ++end;
        }
        // Trim trailing context to three lines.
        while (end > start && quiet > kContext) {
            --end;
            --quiet;
        }
        int countA = 0, countB = 0;
        QString body;
        for (std::size_t q = start; q < end; ++q) {
            const Op &op = ops[q];
            if (op.kind == ' ') {
                body += QLatin1Char(' ') + a[lineA[q]] + QLatin1Char('\n');
                ++countA, ++countB;
            } else if (op.kind == '-') {
                body += QLatin1Char('-') + a[op.line] + QLatin1Char('\n');
                ++countA;
            } else {
                body += QLatin1Char('+') + b[op.line] + QLatin1Char('\n');
                ++countB;
            }
        }
        out += QStringLiteral("@@ -%1,%2 +%3,%4 @@\n")
                   .arg(countA ? lineA[start] + 1 : lineA[start]).arg(countA)
                   .arg(countB ? lineB[start] + 1 : lineB[start]).arg(countB);
        out += body;
        k = end;
    }
    return out;
}

QString diffToText(const ReconfigurationDiff &diff, int maxSwitches)
{
    QString out;
    out += QStringLiteral("switches touched: %1\n").arg(diff.switchesTouched());
    out += QStringLiteral("changed LFT entries: %1\n").arg(diff.changedEntries);
    out += QStringLiteral("changed LFT blocks: %1\n").arg(diff.changedBlocks);
    out += QStringLiteral("SwitchInfo sets: %1\n").arg(diff.switchInfoSets);
    out += QStringLiteral("changed P_Key blocks: %1\n").arg(diff.pkeyBlocks.size());
    out += QStringLiteral("SMPs (OpenSM): %1\n").arg(diff.smps());
    int shown = 0;
    for (const SwitchLftChange &sw : diff.switches) {
        if (shown++ == maxSwitches) {
            out += QStringLiteral("  ... %1 more switches\n").arg(diff.switches.size() - std::size_t(maxSwitches));
            break;
        }
        QStringList blocks;
        for (int b : sw.changedBlocks)
            blocks << QString::number(b);
        out += QStringLiteral("  switch %1 %2 (LID %3): %4 entries, %5 blocks [%6]%7\n")
                   .arg(guidText(sw.guid), sw.description.isEmpty() ? QStringLiteral("-") : QStringLiteral("\"%1\"").arg(sw.description))
                   .arg(sw.lid).arg(sw.changedEntries).arg(sw.changedBlocks.size()).arg(blocks.join(QLatin1Char(',')))
                   .arg(sw.switchInfoSet ? QStringLiteral(", SwitchInfo") : QString());
    }
    for (const PKeyBlockChange &p : diff.pkeyBlocks)
        out += QStringLiteral("  P_Key block %1 of %2 port %3%4\n").arg(p.block).arg(guidText(p.nodeGuid)).arg(p.portNumber)
                   .arg(p.description.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(p.description));
    for (const QString &w : diff.warnings)
        out += QStringLiteral("warning: %1\n").arg(w);
    if (!diff.partitionsDiff.isEmpty())
        out += diff.partitionsDiff;
    return out;
}

QJsonObject diffToJson(const ReconfigurationDiff &diff)
{
    QJsonArray switches;
    for (const SwitchLftChange &sw : diff.switches) {
        QJsonArray blocks;
        for (int b : sw.changedBlocks)
            blocks.append(b);
        switches.append(QJsonObject{{QStringLiteral("guid"), guidText(sw.guid)},
                                    {QStringLiteral("lid"), sw.lid},
                                    {QStringLiteral("description"), sw.description},
                                    {QStringLiteral("changed_entries"), sw.changedEntries},
                                    {QStringLiteral("changed_blocks"), blocks},
                                    {QStringLiteral("top_from"), sw.topFrom},
                                    {QStringLiteral("top_to"), sw.topTo},
                                    {QStringLiteral("switch_info_set"), sw.switchInfoSet}});
    }
    QJsonArray pkeys;
    for (const PKeyBlockChange &p : diff.pkeyBlocks) {
        auto entries = [](const std::vector<std::uint16_t> &v) {
            QJsonArray a;
            for (std::uint16_t k : v)
                if (k & kPKeyMask)
                    a.append(pkeyText(k));
            return a;
        };
        pkeys.append(QJsonObject{{QStringLiteral("node_guid"), guidText(p.nodeGuid)},
                                 {QStringLiteral("port"), p.portNumber},
                                 {QStringLiteral("description"), p.description},
                                 {QStringLiteral("block"), p.block},
                                 {QStringLiteral("from"), entries(p.from)},
                                 {QStringLiteral("to"), entries(p.to)}});
    }
    return QJsonObject{{QStringLiteral("changed_entries"), double(diff.changedEntries)},
                       {QStringLiteral("changed_blocks"), double(diff.changedBlocks)},
                       {QStringLiteral("switches_touched"), diff.switchesTouched()},
                       {QStringLiteral("switch_info_sets"), diff.switchInfoSets},
                       {QStringLiteral("pkey_block_sets"), int(diff.pkeyBlocks.size())},
                       {QStringLiteral("smps"), double(diff.smps())},
                       {QStringLiteral("switches"), switches},
                       {QStringLiteral("pkey_blocks"), pkeys},
                       {QStringLiteral("partitions_diff"), diff.partitionsDiff},
                       {QStringLiteral("warnings"), QJsonArray::fromStringList(diff.warnings)}};
}

}  // namespace weft
