#include "CandidateReview.h"

#include "FabricDocument.h"

#include <QCoreApplication>

namespace weft {

Status reviewCandidate(FabricDocument *document, const CandidateStudy &study, const CandidateResult &candidate,
                       ProposalOrigin origin)
{
    FabricSession *session = document ? document->session() : nullptr;
    if (!session || !document->fabric())
        return Error{{}, 0, QCoreApplication::translate("weft::CandidateReview", "No fabric is open.")};
    if (!session->currentTables())
        return Error{{}, 0, QCoreApplication::translate("weft::CandidateReview", "The installed tables are not known: a candidate has nothing to be compared with.")};
    Result<PreviewResult> proposal = candidateProposal(study, candidate, session->currentTables(), session->currentTablesName());
    if (!proposal)
        return proposal.error();
    // The session plans it on the document's (real) fabric from the installed tables.
    session->setProposal(std::move(proposal).value(), std::move(origin));
    return Done{};
}

}  // namespace weft
