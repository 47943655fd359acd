#pragma once
// What one announcement of the desk's state says changed, so that each listener redoes only its
// part: a weight edit recolours cables once new metrics are in, it does not rebuild the scene;
// a renamed partition relabels, it does not reroute. The document (views/document) announces
// the tenancy's kinds; the session (FabricSession.h) the kinds it owns, relayed by the document,
// so that a view listens to one channel.

#include <QFlags>

namespace weft {

enum class DocumentChange : unsigned {
    Fabric = 0x01,         // another fabric (everything else was reset with it)
    Partitions = 0x02,     // membership, names, partitions created or deleted, tenants
    Policies = 0x04,       // a partition's isolation policy, the policy mode
    Weights = 0x08,        // node weights
    CurrentTables = 0x10,  // the tables the fabric holds now, or what core says about them
    Proposal = 0x20,       // the proposal to review, or none, or whether it is stale
    Plan = 0x40,           // the plan from what the fabric holds to the proposal
    LiveChanges = 0x80,    // a rediscovery found the live fabric changed since it was opened
    Session = 0x100,       // the adapter, the commit target, a discovery or commit started or ended
    WhatIf = 0x200,        // the what-if events the studio plans for
};
Q_DECLARE_FLAGS(DocumentChanges, DocumentChange)

// Everything a tenancy edit can touch; routing results computed under the tenancy are stale
// after any of them.
inline constexpr DocumentChanges kTenancyChanges{DocumentChange::Partitions, DocumentChange::Policies,
                                                 DocumentChange::Weights};

}  // namespace weft

Q_DECLARE_OPERATORS_FOR_FLAGS(weft::DocumentChanges)
