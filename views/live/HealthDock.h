#pragma once
// The Health dock (View ▸ Health): `weft check` in the desk. Check runs FabricCheck.h's checkHeldFabric on a
// worker thread over the fabric shown, the tables and P_Keys the session says it holds, and the
// design file chosen (read on the worker too): identities, links, the design, the tables and the
// partitions. Live, Check first rediscovers through the session's fabric link (as Fabric ▸
// Rediscover does, queued behind whatever it runs), so the findings are of what the fabric holds
// now. The findings are listed by severity; choosing one selects its nodes on the map, and the
// map marks them all (healthMarksOf): missing cables red, miswired orange, sick purple.
// Counter windows and SMInfo stay `weft check`'s: the desk's counters are the sampler's.

#include "FabricCheck.h"

#include <QPointer>
#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace weft {

class FabricDocument;
class MapOverlays;

class HealthDock : public QWidget
{
    Q_OBJECT

public:
    explicit HealthDock(FabricDocument *document, QWidget *parent = nullptr);
    ~HealthDock() override;

    // Where the findings are marked; none: not marked.
    void setMap(MapOverlays *map);
    // The design the next check compares with (a topology file or a cabling list); empty: none.
    void setDesignFile(const QString &path);
    QString designFile() const { return m_designFile; }

    QTreeWidget *tree() const { return m_tree; }
    QPushButton *checkButton() const { return m_check; }
    QString summaryText() const;
    // The last check's report, until the fabric changes.
    const std::optional<FabricCheckReport> &report() const { return m_report; }
    const HealthMarks &marks() const { return m_marks; }
    bool isChecking() const { return m_checking; }

public Q_SLOTS:
    // Checks the fabric (live: after a rediscovery); checked() follows.
    void check();

Q_SIGNALS:
    // A check ended: `error` empty when it ran (the report() holds its findings).
    void checked(const QString &error);
    // The node GUIDs of the finding chosen that the fabric shown has.
    void nodesChosen(const std::vector<weft::Guid> &nodes);

private:
    void runCheck(const QString &source);
    void show(const FabricCheckReport &report);
    void clear(const QString &summary);
    void chooseDesign();
    void finish(const QString &error);

    FabricDocument *m_document;
    QPointer<MapOverlays> m_map;
    QString m_designFile;
    std::optional<FabricCheckReport> m_report;
    HealthMarks m_marks;
    bool m_checking = false;
    bool m_waitingForDiscovery = false;
    quint64 m_generation = 0;  // bumped by a new fabric: a check of the old one is dropped
    QLabel *m_summary;
    QLabel *m_designLabel;
    QPushButton *m_design;
    QPushButton *m_check;
    QTreeWidget *m_tree;
};

}  // namespace weft
