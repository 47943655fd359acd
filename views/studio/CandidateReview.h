#pragma once
// A candidate of the reconfiguration studio (or any panel that plans one: routing keys, a VM
// migration) made the document's proposal, so that the one Diff Review and its Approve commit
// it like any routing preview. The current side is the installed tables as the study judged
// them; the proposed side the candidate's tables and evaluation.
//
// The session plans the proposal on the document's fabric, the real one: a what-if event
// (a link or switch failed, a host removed) never changes it, and the candidate's tables,
// routed around the event, are tables for that fabric too. Nothing marks the proposal stale
// for having been planned on a what-if fabric; only later tenancy edits or a rediscovery do.

#include "ReconfigurationCandidates.h"
#include "Result.h"
#include "RoutingProposal.h"

#include <QString>

namespace weft {

class FabricDocument;

// The proposal a candidate becomes: "Current: NAME" (the installed tables as judged by the
// study) beside "Candidate: NAME" (its tables, evaluation and service levels). Fails, saying
// why, for a candidate without tables (one an engine refused).
Result<PreviewResult> candidateProposal(const CandidateStudy &study, const CandidateResult &candidate,
                                        std::shared_ptr<const ForwardingTables> installed, const QString &installedName);

// Makes it the document's proposal (RoutingSession::setProposal): the Diff Review shows its
// plan from the installed tables, and Approve commits it. Fails, changing nothing, when the
// candidate has no tables or the document has no fabric or no installed tables.
Status reviewCandidate(FabricDocument *document, const CandidateStudy &study, const CandidateResult &candidate);

}  // namespace weft
