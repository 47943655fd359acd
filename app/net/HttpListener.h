#pragma once
// A small HTTP/1.1 listener for Weft's endpoints (`weft monitor --prometheus`, `weft serve`),
// written so that no client can take the process down or hold it up:
// - methods as the caller allows them (HttpLimits::methods; others: 405 with an Allow header);
//   an unknown path: 404;
// - the request line and headers at most maxHeaderBytes (431), a body at most maxBodyBytes (413;
//   a chunked body is refused the same way); the head is parsed by parseRequestHead
//   (HttpRequestParser.h), which the fuzz target runs too;
// - with TLS (setTls), HTTPS only: each accepted socket is wrapped in a QSslSocket here rather
//   than by QSslServer, whose Qt 6.4 version has no handshake timeout, so the handshake counts
//   against the connection cap and the same timeout as the head; a plain HTTP client fails the
//   handshake and is closed without a byte of HTTP; a client certificate reaches the request
//   only when it verified against the configuration's CAs (with QueryPeer, a client without
//   one, or with another, is still served, as anonymous);
// - a request's head and its body must each arrive within headerTimeoutMs (of the connection, or
//   of the last answer on a kept-alive one), and an answer must drain within it, or the
//   connection closes; a connection waiting for its own answer is not timed;
// - with an admission (setAdmission), nothing before the credential: once a request's head has
//   arrived the caller judges it (its credential, its rate of failures) and either refuses it,
//   answered at once and the connection closed with none of its body read, or admits it with the
//   body its owner may send; the body is then read as it arrives, never reserved by its declared
//   length, and all bodies being read at once stay within maxBodyMemory (503 beyond);
// - at most maxConnections at a time: at the cap, the oldest connection not yet admitted (in its
//   handshake, or its head still arriving) makes room, then the oldest admitted one that is idle,
//   so a flood of half-open or unauthenticated connections cannot lock out a client; one address
//   holds at most maxUnadmittedPerAddress connections not yet admitted (its oldest makes room for
//   its newest), and one owner at most maxConnectionsPerOwner (429 beyond);
// - an event stream whose reader lets more than maxStreamBacklog bytes pile up, or takes nothing
//   for streamStallMs while bytes wait, is cut off;
// - when the process runs out of file descriptors, accepting pauses for a second and says so
//   once, instead of spinning; whatever clients do, the caller's event loop keeps its turns.
// Handlers run on the listener's thread, between turns of its event loop; an asynchronous one
// answers later through its HttpResponder.

#include "HttpRequestParser.h"

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QSet>
#include <QSslConfiguration>
#include <QString>

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QTcpServer;
class QTcpSocket;
class QTimer;

namespace weft::net {

struct HttpReply
{
    int status = 200;
    QByteArray contentType = "text/plain; charset=utf-8";
    QByteArray body;
    QByteArray extraHeaders;  // whole lines, each ending in \r\n
};

class HttpListener;

// What the caller makes of a request whose head has arrived, before any of its body is read
// (HttpListener::setAdmission).
struct HttpAdmission
{
    std::optional<HttpReply> refusal;  // answered at once, the connection closed, the body unread
    qint64 maxBodyBytes = 0;           // the body this request may bring (413 beyond)
    QString owner;                     // who it is, for maxConnectionsPerOwner; empty: anonymous
};

// Where the answer to one request goes, for a handler that answers later or streams. It may
// outlive its connection: then isOpen() is false and every call does nothing.
class HttpResponder
{
public:
    bool isOpen() const { return m_listener != nullptr; }
    // The answer; once (later calls, and calls after startStream, do nothing).
    void reply(const HttpReply &reply);
    // An open-ended answer (server-sent events): the status line and headers now, without a
    // length; the connection closes when the stream ends. False when it cannot start.
    bool startStream(int status, const QByteArray &contentType, const QByteArray &extraHeaders = {});
    // More of the stream; false (and the connection dropped) when the reader has fallen
    // maxStreamBacklog bytes behind, or it is closed.
    bool write(const QByteArray &chunk);
    // Ends the stream once what was written has left (within headerTimeoutMs); without an
    // answer yet, answers 500.
    void close();
    // Called once when the responder is done: its answer given, its stream closed, or its
    // connection gone, whoever ends it. isOpen() is false by then.
    void onClosed(std::function<void()> closed) { m_closed = std::move(closed); }

private:
    friend class HttpListener;
    void detach();

    HttpListener *m_listener = nullptr;
    void *m_connection = nullptr;  // HttpListener::Connection
    bool m_answered = false;
    bool m_streaming = false;
    std::function<void()> m_closed;
};

class HttpListener : public QObject
{
    Q_OBJECT

public:
    using Handler = std::function<HttpReply(const HttpRequest &)>;
    using AsyncHandler = std::function<void(const HttpRequest &, std::shared_ptr<HttpResponder>)>;
    // Called with a request's head (no body yet) and its declared body length.
    using Admission = std::function<HttpAdmission(const HttpRequest &, qint64 contentLength)>;

    explicit HttpListener(HttpLimits limits = {}, QObject *parent = nullptr);
    ~HttpListener() override;

    // An exact path answered at once.
    void route(const QByteArray &path, Handler handler);
    // Every request no route takes (without one: 404).
    void setHandler(AsyncHandler handler) { m_handler = std::move(handler); }
    // Every request's head is judged by it before its body is read (without one, every request
    // is admitted with limits.maxBodyBytes).
    void setAdmission(Admission admission) { m_admission = std::move(admission); }
    // HTTPS only, with this certificate and key (and, for mutual TLS, peer verification and CAs).
    // Before listen().
    void setTls(const QSslConfiguration &configuration) { m_tls = configuration; }
    // False with `error` set when the address cannot be bound.
    bool listen(const QHostAddress &address, quint16 port, QString *error);
    quint16 port() const;
    int connectionCount() const { return int(m_connections.size()); }
    int maxConnections() const { return m_maxConnections; }
    // Connections that no request has yet been admitted on, and the declared bytes of the bodies
    // being read now.
    int unadmittedCount() const;
    qint64 bodyBytesReading() const { return m_bodyBytesReading; }

Q_SIGNALS:
    // Something an operator should know: descriptor exhaustion, connections turned away at the
    // cap. Said once per episode, not once per connection.
    void problem(const QString &message);

private:
    friend class HttpResponder;
    struct Connection;
    class Server;
    void acceptPending();
    void onReadable(Connection *c);
    void process(Connection *c);
    void onTimeout(Connection *c);
    void serve(Connection *c);
    void answer(Connection *c, int status, const QByteArray &contentType, const QByteArray &body, bool keepAlive,
                bool headOnly, const QByteArray &extraHeaders = {});
    void refuse(Connection *c, int status, const QByteArray &why, const QByteArray &extraHeaders = {});
    void closeWhenSent(Connection *c);
    void drop(Connection *c);
    bool makeRoom();
    void makeRoomFor(const QHostAddress &peer);
    bool admit(Connection *c);
    void finishBody(Connection *c);
    qint64 unsent(const Connection *c) const;
    // HttpResponder's calls, for the connection it answers.
    void replyTo(Connection *c, const HttpReply &reply);
    bool startStreamOn(Connection *c, int status, const QByteArray &contentType, const QByteArray &extraHeaders);
    bool writeStream(Connection *c, const QByteArray &chunk);
    void endStream(Connection *c);

    HttpLimits m_limits;
    int m_maxConnections = 64;
    std::optional<QSslConfiguration> m_tls;
    std::unique_ptr<QTcpServer> m_server;
    std::map<QByteArray, Handler> m_routes;
    AsyncHandler m_handler;
    Admission m_admission;
    qint64 m_bodyBytesReading = 0;  // declared lengths of the bodies being read
    std::list<std::unique_ptr<Connection>> m_connections;  // oldest first
    std::vector<std::unique_ptr<Connection>> m_dropped;    // closed, deleted at the next turn
    bool m_saidExhausted = false;
    bool m_saidCap = false;
    QSet<QHostAddress> m_saidAddresses;  // addresses told of at their limit (maxUnadmittedPerAddress)
};

// The reason phrase of a status Weft answers with ("Not Found").
QByteArray reasonPhrase(int status);

}  // namespace weft::net
