#pragma once
// The reconfiguration studio (spec 003 §8): for one change, every candidate way of getting there
// from the tables the switches hold, planned side by side. The change is a list of what-if
// events (links or switches failed, hosts removed: picked on the map, never applied to the
// document's fabric) together with the tenancy as edited now; with no event it is the edits
// alone ("Plan the current edits"). The candidates are full re-routes with the engines picked,
// SlimUpdate with a τ, metabase phase 2 with a slot policy (mpi-order and priority take the
// hosts selected on the map). Nothing here computes a figure: planCandidates
// (ReconfigurationCandidates.h) does, on a worker thread, the same function `weft reconfigure`
// calls. A row chosen shows its load on the map; Review makes it the document's proposal
// (CandidateReview.h) for the Diff Review and its Approve.

#include "DocumentChanges.h"
#include "ReconfigurationCandidates.h"
#include "WhatIf.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSlider;
class QTableWidget;
class QTimer;

namespace weft {

class FabricDocument;
class MapOverlays;

class ReconfigurationStudio : public QWidget
{
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        EntriesColumn,
        BlocksColumn,
        SmpsColumn,
        PathsColumn,
        MaxLoadColumn,
        MeanLoadColumn,
        ViolationsColumn,
        ValidColumn,
        EbbColumn,
        TimeColumn,
        ColumnCount
    };
    // τ in weight units: the slider's range.
    static constexpr int kMaxTau = 10;

    explicit ReconfigurationStudio(FabricDocument *document, QWidget *parent = nullptr);
    ~ReconfigurationStudio() override;

    // The map: the studio asks it to show the events and a chosen candidate's load (MapOverlays),
    // and its selection gives the mpi-order rank order and the priority nodes.
    void setMap(MapOverlays *map);

    // The events, in the order added (the map's context menu adds them). A new event drops the
    // candidates of the old ones.
    const WhatIf &whatIf() const { return m_whatIf; }
    void addFailedLink(Guid node, int port);
    void addFailedSwitch(Guid node);
    void addRemovedHost(Guid node);
    void clearEvents();

    // The candidate picks.
    QStringList engines() const;  // full re-route engines checked
    void setEngines(const QStringList &engines);
    int tau() const;
    void setTau(int tau);
    SlotPolicy metabasePolicy() const;
    void setMetabasePolicy(SlotPolicy policy);
    void setEbb(bool on);
    std::vector<CandidateSpec> candidateSpecs() const;

    bool isRunning() const { return m_progress != nullptr; }
    bool canPlan() const;
    // The last plan's candidates; null before one, and once the fabric or the installed tables
    // it was planned against are replaced.
    const CandidateStudy *study() const { return m_study.get(); }
    QTableWidget *candidateTable() const { return m_table; }
    QString statusText() const;
    int selectedCandidate() const;  // row, -1 if none
    void selectCandidate(int row);

    // The drill-down of a candidate: its changed source→destination pairs (up to `limit`).
    ChangedPairs changedPairsOf(int row, std::size_t limit = 1000) const;

public Q_SLOTS:
    // Plans the candidates for the events and the tenancy as edited; with no event, the edits.
    void plan();
    // Forgets the events and plans the tenancy edits alone (no topology change).
    void planCurrentEdits();
    void cancel();
    // The selected candidate becomes the document's proposal; false (status says why) if none.
    bool reviewSelected();
    // Opens the drill-down dialog for the selected candidate.
    void showChangedPaths();

Q_SIGNALS:
    // After a plan ended (ok: a study is shown) or was cancelled.
    void finished(bool ok);
    // A candidate is the document's proposal now: the Diff Review has it.
    void reviewed();
    // The event list changed (the map marks follow it here).
    void whatIfChanged();

private:
    void documentChanged(DocumentChanges what);
    void eventsChanged();
    void dropStudy();
    void pollProgress();
    void finish(const std::shared_ptr<Result<CandidateStudy>> &outcome);
    void endRun();
    void fillTable();
    void showSelectedLoad();
    void updateControls();
    void showIdleStatus();

    FabricDocument *m_document;
    MapOverlays *m_map = nullptr;
    WhatIf m_whatIf;
    std::shared_ptr<const CandidateStudy> m_study;
    std::shared_ptr<const ForwardingTables> m_studyInstalled;  // what the study was planned against
    std::shared_ptr<CandidateProgress> m_progress;             // non-null while running
    quint64 m_generation = 0;
    std::shared_ptr<const Fabric> m_runFabric;
    std::shared_ptr<const ForwardingTables> m_runInstalled;

    QListWidget *m_events = nullptr;
    QPushButton *m_clearEvents = nullptr;
    QListWidget *m_engines = nullptr;
    QCheckBox *m_slimUpdate = nullptr;
    QSlider *m_tau = nullptr;
    QLabel *m_tauValue = nullptr;
    QCheckBox *m_metabase = nullptr;
    QComboBox *m_policy = nullptr;
    QCheckBox *m_ebb = nullptr;
    QPushButton *m_plan = nullptr;
    QPushButton *m_planEdits = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_bar = nullptr;
    QLabel *m_status = nullptr;
    // For a what-if failure with Weft's engine inside OpenSM: what that engine will do on its own
    // when it happens (predictIntentResponse on the what-if fabric), computed beside the candidates.
    QLabel *m_smResponse = nullptr;
    quint64 m_smResponseGeneration = 0;
    void predictSmResponse(const std::shared_ptr<const Fabric> &fabric);
    QTableWidget *m_table = nullptr;
    QPushButton *m_review = nullptr;
    QPushButton *m_paths = nullptr;
    QTimer *m_poll = nullptr;
};

}  // namespace weft
