#pragma once
// The LFT inspector: one switch's linear forwarding table by LID, the current entries beside the
// proposed ones, with the port's neighbour named (what the cable of that port leads to). LIDs go
// in 64-entry blocks, the unit a subnet manager sends: the blocks are shaded in turn, and the
// blocks the diff says are sent are marked, their changed entries highlighted.
//
// Which blocks are sent is the diff's answer (diffForwardingTables over the two table sets),
// never worked out here, so the inspector marks exactly what the Diff Review counts. The table
// model holds one switch at a time (up to 49,152 LIDs) and draws from it directly: no widget per
// cell, no copy per row.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "ReconfigurationDiff.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <array>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace weft {

class FabricDocument;

// A node as the studio names it: its description, or its node id without one.
QString studioNodeName(const Node &node);

// The two table sets the LFT inspector and Trace path compare: what the switches hold and what
// the document proposes (a routing preview, or a studio candidate made the proposal); without a
// proposal, the current tables on both sides, so that nothing differs.
struct ComparedTables
{
    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> current;
    std::shared_ptr<const ForwardingTables> proposed;
};
ComparedTables comparedTables(const FabricDocument &document);
// Calls `show` with the document's compared tables now and whenever they change, for as long
// as `receiver` lives; a null document does nothing.
void followComparedTables(FabricDocument *document, QObject *receiver, std::function<void(const ComparedTables &)> show);

// One switch's entries, current beside proposed, one row per LID (all LIDs, or only those of
// the blocks that are sent).
class LftTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { BlockColumn,
                  LidColumn,
                  DestinationColumn,
                  CurrentPortColumn,
                  CurrentNeighbourColumn,
                  ProposedPortColumn,
                  ProposedNeighbourColumn,
                  ColumnCount };
    enum Role {
        LidRole = Qt::UserRole + 1,  // the row's LID
        ChangedRole,                 // bool: the entry differs between current and proposed
        BlockSentRole,               // bool: the row's block is one the diff sends
    };

    explicit LftTableModel(QObject *parent = nullptr);

    // Shows switch `node` of `fabric` (kNoIndex: nothing). A null table is a switch without
    // routes on that side. `change` is the diff's entry for the switch; null when it changed
    // nothing. LIDs 1 .. the fabric's highest (or the highest routed, if higher).
    void setSwitch(std::shared_ptr<const Fabric> fabric, NodeIndex node, const LinearForwardingTable *current,
                   const LinearForwardingTable *proposed, const SwitchLftChange *change);
    void clear();
    void setOnlyChangedBlocks(bool only);
    bool onlyChangedBlocks() const { return m_onlyChanged; }

    NodeIndex switchNode() const { return m_node; }
    const std::vector<int> &changedBlocks() const { return m_changedBlocks; }  // ascending
    bool isBlockSent(int block) const;
    int blockCount() const { return int(m_blockSent.size()); }  // blocks 0 .. lastLid()/64
    Lid lastLid() const { return m_lastLid; }
    bool isChanged(Lid lid) const { return m_current.port(lid) != m_proposed.port(lid); }
    Lid lidAt(int row) const;
    int rowOfLid(Lid lid) const;  // -1 when the LID is not shown (out of range or filtered out)

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QColor changedColour();    // a changed entry
    static QColor sentBlockColour();  // the block column of a block that is sent
    static QColor oddBlockColour();   // every other block, so that the boundaries show

private:
    void rebuildRows();
    QString portText(std::uint8_t port) const;
    QString neighbourText(std::uint8_t port) const;
    QString destinationText(Lid lid) const;

    std::shared_ptr<const Fabric> m_fabric;
    NodeIndex m_node = kNoIndex;
    LinearForwardingTable m_current;
    LinearForwardingTable m_proposed;
    std::vector<int> m_changedBlocks;
    std::vector<char> m_blockSent;  // by block
    Lid m_lastLid = 0;
    bool m_onlyChanged = false;
    std::vector<Lid> m_rows;                // the LIDs shown when filtered; empty: 1 .. m_lastLid
    std::array<QString, 256> m_neighbours;  // by port number, for this switch
};

class LftInspector : public QWidget
{
    Q_OBJECT

public:
    explicit LftInspector(QWidget *parent = nullptr);

    // Follows the document's fabric, current tables and proposal from now on.
    void setDocument(FabricDocument *document);
    // Shows these tables instead (a studio candidate beside the installed tables), until the
    // document's tables or proposal change. `current` or `proposed` may be null (no routes).
    void setTables(std::shared_ptr<const Fabric> fabric, std::shared_ptr<const ForwardingTables> current,
                   std::shared_ptr<const ForwardingTables> proposed);

    // The switch to inspect; false if `node` is not a switch of the fabric shown.
    bool showSwitch(NodeIndex node);
    bool showSwitch(Guid guid);
    NodeIndex currentSwitch() const { return m_model->switchNode(); }
    // Scrolls to and selects the LID's row (turning the changed-blocks filter off if it hides
    // it); false if the LID is not in the table.
    bool jumpToLid(Lid lid);
    void setOnlyChangedBlocks(bool only);

    // The blocks marked as sent for the switch shown, ascending, and the LIDs whose entries are
    // highlighted as changed (over all LIDs, whatever the filter).
    std::vector<int> highlightedBlocks() const;
    std::vector<Lid> highlightedLids() const;
    // The diff the marks come from (every switch), for the switch list and the tests.
    const ReconfigurationDiff &diff() const { return m_diff; }

    LftTableModel *model() const { return m_model; }
    QTableView *tableView() const { return m_table; }
    QComboBox *switchBox() const { return m_switchBox; }
    QString summaryText() const;

private:
    void fillSwitchBox();
    void showSwitchFromBox();
    void findSwitch();
    void jumpToTypedLid();

    FabricDocument *m_document = nullptr;
    std::shared_ptr<const Fabric> m_fabric;
    std::shared_ptr<const ForwardingTables> m_current;
    std::shared_ptr<const ForwardingTables> m_proposed;
    ReconfigurationDiff m_diff;
    std::unordered_map<Guid, std::size_t> m_changeOf;  // switch GUID -> index in m_diff.switches

    LftTableModel *m_model = nullptr;
    QComboBox *m_switchBox = nullptr;
    QLineEdit *m_lidBox = nullptr;
    QCheckBox *m_onlyChanged = nullptr;
    QLabel *m_summary = nullptr;
    QTableView *m_table = nullptr;
};

}  // namespace weft
