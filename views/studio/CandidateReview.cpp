#include "CandidateReview.h"

#include "FabricDocument.h"
#include "RoutingSession.h"

#include <QCoreApplication>

namespace weft {

Result<PreviewResult> candidateProposal(const CandidateStudy &study, const CandidateResult &candidate,
                                        std::shared_ptr<const ForwardingTables> installed, const QString &installedName)
{
    if (!candidate.tables || !candidate.evaluation.metrics)
        return Error{{}, 0, QCoreApplication::translate("weft::CandidateReview", "%1 has no tables to review: %2").arg(candidate.name, candidate.error)};
    PreviewResult result;
    if (installed) {
        RoutingSnapshot current;
        static_cast<RoutingEvaluation &>(current) = study.installedEvaluation;
        current.tables = std::move(installed);
        current.label = QCoreApplication::translate("weft::CandidateReview", "Current: %1").arg(installedName);
        result.current = std::move(current);
    }
    static_cast<RoutingEvaluation &>(result.proposed) = candidate.evaluation;
    result.proposed.tables = candidate.tables;
    result.proposed.serviceLevels = candidate.serviceLevels;
    result.proposed.warnings += candidate.warnings;
    result.proposed.label = QCoreApplication::translate("weft::CandidateReview", "Candidate: %1").arg(candidate.name);
    return result;
}

Status reviewCandidate(FabricDocument *document, const CandidateStudy &study, const CandidateResult &candidate)
{
    RoutingSession *session = document ? document->session() : nullptr;
    if (!session || !document->fabric())
        return Error{{}, 0, QCoreApplication::translate("weft::CandidateReview", "No fabric is open.")};
    if (!session->currentTables())
        return Error{{}, 0, QCoreApplication::translate("weft::CandidateReview", "The installed tables are not known: a candidate has nothing to be compared with.")};
    Result<PreviewResult> proposal = candidateProposal(study, candidate, session->currentTables(), session->currentTablesName());
    if (!proposal)
        return proposal.error();
    // The session plans it on the document's (real) fabric from the installed tables.
    session->setProposal(std::move(proposal).value());
    return Done{};
}

}  // namespace weft
