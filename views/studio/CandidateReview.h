#pragma once
// A candidate of the reconfiguration studio (or any panel that plans one: routing keys, a VM
// migration) made the session's proposal (candidateProposal), so that the one Diff Review and
// its Approve commit it like any routing preview. The current side is the installed tables as
// the study judged them; the proposed side the candidate's tables and evaluation.
//
// The session plans it on the document's fabric, the real one: a what-if event (a link or switch
// failed, a host removed) never changes it, and the candidate's tables, routed around the event,
// are tables for that fabric too. The origin says which events it was planned for: the plan is
// installed only as a pre-emptive plan valid on the fabric as it is (the commit checks), and is
// stale once the studio's events change.

#include "FabricSession.h"
#include "ReconfigurationCandidates.h"
#include "Result.h"

#include <QString>

namespace weft {

class FabricDocument;

// Makes it the session's proposal. Fails, changing nothing, when the candidate has no tables or
// the document has no fabric or no installed tables.
Status reviewCandidate(FabricDocument *document, const CandidateStudy &study, const CandidateResult &candidate,
                       ProposalOrigin origin);

}  // namespace weft
