#pragma once
// The tables of a live fabric read with many SMPs in flight on one MAD port: LinearForwardingTable
// blocks, P_Key tables, SL2VL tables, and the SwitchInfo and NodeInfo they need first (the
// FDB top, the partition capacities). What readForwardingTables, readPKeyTables and
// readSlToVlTables (LiveFabric.h) return is read here, so discovery with tables, the commit's
// read-back and verification, the desk's Rediscover and the service all read through it.
//
// The scheduling is GmpPipeline's (matched by transaction ID, at most `perNode` SMPs at one node,
// a window that halves on a loss once per round trip and grows back, resends with a new
// transaction ID): one destination per node. Each SMP goes LID-routed where the node (a switch)
// or the port (a CA's) has a LID, by directed route otherwise; one that goes unanswered by LID
// through all its retries is sent again by directed route (its retries anew), so that a node
// whose LID route is broken (a failed cable the SM has not routed around yet) is still read.
//
// No loss: every table is read whole or the read refuses, naming each node that did not answer
// (description, GUID, LID) and what of it was left unread. Internal to weft_live.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "GmpPipeline.h"
#include "LiveFabric.h"
#include "PKeyTables.h"
#include "QosConfig.h"
#include "Result.h"

#include <QString>

#include <vector>

namespace weft {

struct SmpReadWhat
{
    bool lfts = false;
    bool pkeys = false;
    bool slToVl = false;
};

struct SmpReadResult
{
    ForwardingTables lfts;
    PKeyTables pkeys;
    std::vector<PortSlToVl> slToVl;
};

// What a read asked of the fabric, for reports.
struct SmpReadCounts
{
    std::size_t switches = 0;      // whose LFT was read
    std::size_t lftBlocks = 0;
    std::size_t pkeyTables = 0;
    std::size_t pkeyBlocks = 0;
    std::size_t slToVlTables = 0;
    std::size_t byDirectedRoute = 0;  // SMPs sent again by directed route after their LID route failed
    GmpPipelineStats mads;            // every SMP of the read (SwitchInfo and NodeInfo included)
    double seconds = 0;
    bool cancelled = false;  // the read stopped because progress said so

    // "47520 LFT blocks of 720 switches, 7632 P_Key tables: 55872 SMPs, 0 retries, 0.41 s"
    QString summary() const;
    SmpReadCounts &operator+=(const SmpReadCounts &other);
};

// The test hook: a share (0..1) of SMPs that the reader drops instead of sending, as a lossy
// fabric would lose them (set by the environment variable WEFT_SMP_DROP, e.g. "0.05", read when
// a read starts); they count as losses and are retried like any other. 0 by default.
double smpDropShare();

// Reads what `what` asks on `fabric` through the port `options` name. `options.progress` reports
// tables read so far; returning false cancels (an Error). `counts` receives what was asked.
Result<SmpReadResult> readTablesPipelined(const Fabric &fabric, const LiveOptions &options, SmpReadWhat what,
                                         SmpReadCounts *counts = nullptr);

// What the reads on this thread have asked since the last call (summed), and forgets it: the
// commit reports what its read-back and verification read.
SmpReadCounts takeSmpReadCounts();

}  // namespace weft
