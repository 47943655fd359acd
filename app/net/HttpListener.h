#pragma once
// A small HTTP/1.1 listener for Weft's endpoints (`weft monitor --prometheus` now), written so
// that no client can take the process down or hold it up:
// - GET and HEAD only (anything else: 405 with an Allow header); an unknown path: 404;
// - the request line and headers at most maxHeaderBytes (431), a body at most maxBodyBytes
//   (413; a chunked body is refused the same way);
// - a request's headers must arrive within headerTimeoutMs of the connection (or of the last
//   answer on a kept-alive one), and an answer must drain within it, or the connection closes;
// - at most maxConnections at a time: at the cap, the oldest connection still waiting for its
//   request makes room, so a flood of half-open connections cannot lock out a scraper;
// - when the process runs out of file descriptors, accepting pauses for a second and says so
//   once, instead of spinning; whatever clients do, the caller's event loop keeps its turns.
// Handlers run on the listener's thread, between turns of its event loop.

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QString>

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <vector>

class QTcpServer;
class QTcpSocket;
class QTimer;

namespace weft::net {

struct HttpLimits
{
    int maxHeaderBytes = 8192;
    qint64 maxBodyBytes = 65536;
    int headerTimeoutMs = 10000;
    int maxConnections = 0;  // 0: a quarter of the process's open-file limit, at most 64
};

struct HttpRequest
{
    QByteArray method;  // GET or HEAD
    QByteArray path;    // without the query
    QByteArray query;
};

struct HttpReply
{
    int status = 200;
    QByteArray contentType = "text/plain; charset=utf-8";
    QByteArray body;
};

class HttpListener : public QObject
{
    Q_OBJECT

public:
    using Handler = std::function<HttpReply(const HttpRequest &)>;

    explicit HttpListener(HttpLimits limits = {}, QObject *parent = nullptr);
    ~HttpListener() override;

    void route(const QByteArray &path, Handler handler);
    // False with `error` set when the address cannot be bound.
    bool listen(const QHostAddress &address, quint16 port, QString *error);
    quint16 port() const;
    int connectionCount() const { return int(m_connections.size()); }
    int maxConnections() const { return m_maxConnections; }

Q_SIGNALS:
    // Something an operator should know: descriptor exhaustion, connections turned away at the
    // cap. Said once per episode, not once per connection.
    void problem(const QString &message);

private:
    struct Connection;
    void acceptPending();
    void onReadable(Connection *c);
    void onTimeout(Connection *c);
    void serve(Connection *c);
    void answer(Connection *c, int status, const QByteArray &contentType, const QByteArray &body, bool keepAlive,
                bool headOnly, const QByteArray &extraHeaders = {});
    void refuse(Connection *c, int status, const QByteArray &why, const QByteArray &extraHeaders = {});
    void drop(Connection *c);
    bool makeRoom();

    HttpLimits m_limits;
    int m_maxConnections = 64;
    std::unique_ptr<QTcpServer> m_server;
    std::map<QByteArray, Handler> m_routes;
    std::list<std::unique_ptr<Connection>> m_connections;  // oldest first
    std::vector<std::unique_ptr<Connection>> m_dropped;    // closed, deleted at the next turn
    bool m_saidExhausted = false;
    bool m_saidCap = false;
};

// The reason phrase of a status Weft answers with ("Not Found").
QByteArray reasonPhrase(int status);

}  // namespace weft::net
