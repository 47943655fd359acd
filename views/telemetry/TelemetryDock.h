#pragma once
// The telemetry dock: the links of the latest tick of measured rates, busiest (or most congested)
// first, with utilisation, PortXmitWait per second and new errors; a click selects the cable's
// two ends on the map. Below, the last hour of the selected link from the fabric's history, both
// directions' utilisation, beside the routing model's load of the tables held now when there is
// a routing. The history is the embedded one (the sampler's file) or, when the operator chooses
// one, a Prometheus server that scrapes `weft monitor --prometheus` (remembered in the settings);
// a server's answer is awaited without blocking, and its errors are shown in the plot's place.

#include "Fabric.h"
#include "HistorySource.h"
#include "Result.h"
#include "TelemetryRecord.h"

#include <QPointF>
#include <QUrl>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace weft {

class FabricDocument;
class FabricScene;
class TelemetryHistory;

class TelemetryDock : public QWidget
{
    Q_OBJECT

public:
    enum class Order : std::uint8_t { Busiest,
                                      MostCongested };
    struct LinkRow
    {
        LinkIndex link = kNoIndex;
        double utilisation = -1;   // the busier direction, 0..1; -1 when neither was measured
        double xmitWait = -1;      // PortXmitWait/s, the larger of the two ends; -1 unmeasured
        std::uint64_t errors = 0;  // error deltas of both ends
    };
    static constexpr int kRowsShown = 50;

    explicit TelemetryDock(QWidget *parent = nullptr);
    ~TelemetryDock() override;

    // The map whose cables a click selects, and the document whose routing gives model loads.
    void setScene(FabricScene *scene) { m_scene = scene; }
    void setDocument(FabricDocument *document) { m_document = document; }
    // The history the time series reads (the sampler's file); empty: no series.
    void setHistoryPath(const QString &path);

    // Makes the source of a Prometheus server (the desk's wiring gives it: the sockets are the
    // front end's). Once given, the server remembered in the settings is used again.
    using PrometheusSourceFactory = std::function<std::unique_ptr<HistorySource>(const QUrl &server)>;
    void setPrometheusSourceFactory(PrometheusSourceFactory factory);
    // Reads the time series from this Prometheus server, or from the embedded history when
    // `server` is empty; remembered in the settings ("telemetry/prometheusServer").
    void setPrometheusServer(const QUrl &server);
    QUrl prometheusServer() const { return m_prometheusServer; }
    // Whether the series' history is still being read (a server's answer awaited).
    bool plotPending() const { return m_pendingReads > 0; }
    // Ticks that did not read the selected link's series from a Prometheus server again, because
    // its last read was less than a step (15 s) before or still out.
    int serverReadsSpared() const { return m_serverReadsSpared; }
    // What the plot's note says: its subject, or why there is no series.
    QString plotNote() const;

    // One tick of rates for the scene's fabric.
    void showRecords(const std::vector<TelemetryRecord> &records);
    void clear();

    void setOrder(Order order);
    const std::vector<LinkRow> &rows() const { return m_rows; }  // in the table's order
    QTableWidget *table() const { return m_table; }
    QCustomPlot *plot() const { return m_plot; }
    // The time series plotted: measured utilisation (%) and the model's load, by graph.
    int seriesCount() const;
    std::vector<QPointF> seriesPoints(int series) const;  // (seconds since the epoch, value)
    LinkIndex selectedLink() const { return m_selected; }
    // Selects the row's cable on the map and plots its history.
    void selectLink(LinkIndex link);

public Q_SLOTS:
    // The whole history as CSV, the form of `weft monitor --csv` (TelemetryHistory::exportCsv,
    // through SafeFile). An Error when there is no history or it cannot be written.
    Status exportCsv(const QString &path);
    // Asks where (a file dialog), exports, and says so if it fails.
    void exportCsvWithDialog();
    // Asks for a Prometheus server's URL and reads the series from it.
    void choosePrometheusServerWithDialog();

Q_SIGNALS:
    void linkSelected(weft::LinkIndex link);
    // The time series were drawn (or why not was said), after every read of the history.
    void plotUpdated();

private:
    void sortAndFill();
    void updatePlot();
    // Draws the selected link's two directions from m_answers.
    void drawSeries();
    void showSourceChoice();
    // Opens m_history (the file of m_historyPath, for the scene's fabric) unless it is open.
    Status openHistory();

    FabricScene *m_scene = nullptr;
    FabricDocument *m_document = nullptr;
    QString m_historyPath;
    std::unique_ptr<TelemetryHistory> m_history;
    std::unique_ptr<HistorySource> m_embedded;  // reads m_history
    PrometheusSourceFactory m_prometheusFactory;
    QUrl m_prometheusServer;
    std::unique_ptr<HistorySource> m_prometheus;
    // The read of the plot under way: each answer belongs to one generation of updatePlot.
    quint64 m_plotGeneration = 0;
    int m_pendingReads = 0;
    double m_plotNow = 0;
    LinkIndex m_plottedLink = kNoIndex;  // the link whose series the last read asked for
    int m_serverReadsSpared = 0;
    QString m_sourceName;
    std::optional<Result<std::vector<HistoryPoint>>> m_answers[2];
    std::vector<LinkRow> m_allRows;
    std::vector<LinkRow> m_rows;
    Order m_order = Order::Busiest;
    LinkIndex m_selected = kNoIndex;
    QComboBox *m_orderBox = nullptr;
    QComboBox *m_sourceBox = nullptr;
    QTableWidget *m_table = nullptr;
    QCustomPlot *m_plot = nullptr;
    QLabel *m_plotNote = nullptr;
    QPushButton *m_exportButton = nullptr;
};

}  // namespace weft
