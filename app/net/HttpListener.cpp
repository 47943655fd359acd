#include "HttpListener.h"

#include <QSslSocket>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>

namespace weft::net {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    }
    return "Status";
}

namespace {

int openFileLimit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return 1 << 20;
    return int(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
}

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// What a socket's buffer takes from the kernel at a time: a client sending faster than its body
// is wanted waits in its own buffers, not in this process.
constexpr qint64 kSocketReadBuffer = 64 * 1024;

// How long a connection answered for the last time keeps reading (and dropping) what its client
// still sends, after its own side is closed.
constexpr int kLingerMs = 2000;

}  // namespace

// Accepts as QTcpServer does, but with TLS makes each connection a QSslSocket on the accepted
// descriptor, its handshake started at once; the listener times and counts it like any other.
class HttpListener::Server : public QTcpServer
{
public:
    explicit Server(const std::optional<QSslConfiguration> *tls)
        : m_tls(tls) {}

protected:
    void incomingConnection(qintptr descriptor) override
    {
        if (!*m_tls) {
            QTcpServer::incomingConnection(descriptor);
            return;
        }
        auto *socket = new QSslSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        socket->setSslConfiguration(**m_tls);
        socket->startServerEncryption();
        addPendingConnection(socket);
    }

private:
    const std::optional<QSslConfiguration> *m_tls;  // the listener's, set before it listens
};

struct HttpListener::Connection
{
    QTcpSocket *socket = nullptr;
    QSslSocket *ssl = nullptr;  // the same socket, with TLS
    QTimer timer;
    QByteArray buffer;
    HttpParse head;            // the request being read
    bool readingBody = false;  // head parsed, its body arriving
    bool keepAlive = false;
    bool awaiting = false;   // handed to an asynchronous handler, not answered yet
    bool streaming = false;  // an open-ended answer is being sent
    bool closing = false;    // answered for the last time; waits for the bytes to leave
    bool halfClosed = false; // closing, its answer gone and its sending side shut: lingers
    std::shared_ptr<HttpResponder> responder;
    QHostAddress peer;
    bool admitted = false;       // a request with an owner was admitted on it
    QString owner;               // that owner
    qint64 bodyLimit = 0;        // the body its owner may send
    qint64 bodyCounted = 0;      // its declared body length, in m_bodyBytesReading while read
    qint64 lastUnsent = 0;       // a stream's unsent bytes after its last write
    qint64 lastProgress = 0;     // when its reader last took something (steadyMs)
};

// ---- HttpResponder --------------------------------------------------------------------------------

void HttpResponder::reply(const HttpReply &reply)
{
    if (!m_listener || m_answered || m_streaming)
        return;
    m_answered = true;
    m_listener->replyTo(static_cast<HttpListener::Connection *>(m_connection), reply);
}

bool HttpResponder::startStream(int status, const QByteArray &contentType, const QByteArray &extraHeaders)
{
    if (!m_listener || m_answered || m_streaming)
        return false;
    m_streaming = true;
    return m_listener->startStreamOn(static_cast<HttpListener::Connection *>(m_connection), status, contentType, extraHeaders);
}

bool HttpResponder::write(const QByteArray &chunk)
{
    if (!m_listener || !m_streaming)
        return false;
    return m_listener->writeStream(static_cast<HttpListener::Connection *>(m_connection), chunk);
}

void HttpResponder::close()
{
    if (!m_listener)
        return;
    if (!m_streaming) {
        reply(HttpReply{500, "text/plain; charset=utf-8", "no answer\n", {}});
        return;
    }
    m_listener->endStream(static_cast<HttpListener::Connection *>(m_connection));
}

void HttpResponder::detach()
{
    m_listener = nullptr;
    m_connection = nullptr;
    if (std::function<void()> closed = std::exchange(m_closed, {}))
        closed();
}

// ---- the listener ----------------------------------------------------------------------------------

HttpListener::HttpListener(HttpLimits limits, QObject *parent)
    : QObject(parent), m_limits(std::move(limits))
{
    m_server = std::make_unique<Server>(&m_tls);
    m_maxConnections = m_limits.maxConnections > 0 ? m_limits.maxConnections : std::clamp(openFileLimit() / 4, 4, 64);
    if (m_limits.maxUnadmittedPerAddress <= 0)
        m_limits.maxUnadmittedPerAddress = std::max(2, m_maxConnections / 4);
    if (m_limits.maxConnectionsPerOwner <= 0)
        m_limits.maxConnectionsPerOwner = std::max(2, m_maxConnections / 4);
    if (m_limits.maxBodyMemory <= 0)
        m_limits.maxBodyMemory = 4 * std::max<qint64>(m_limits.maxBodyBytes, 1);
    connect(m_server.get(), &QTcpServer::pendingConnectionAvailable, this, &HttpListener::acceptPending);
    connect(m_server.get(), &QTcpServer::acceptError, this, [this](QAbstractSocket::SocketError error) {
        // QTcpServer pauses accepting after an error other than a temporary one; the waiting
        // connection stays in the kernel's queue and is taken when descriptors are free again.
        if (!m_saidExhausted) {
            m_saidExhausted = true;
            Q_EMIT problem(error == QAbstractSocket::SocketResourceError
                               ? QStringLiteral("out of file descriptors (this process may open %1 files): new "
                                                "connections on port %2 wait until some close")
                                     .arg(openFileLimit())
                                     .arg(port())
                               : QStringLiteral("cannot accept a connection on port %1: %2").arg(port()).arg(m_server->errorString()));
        }
        QTimer::singleShot(1000, this, [this] { m_server->resumeAccepting(); });
    });
}

HttpListener::~HttpListener()
{
    for (const auto &c : m_connections) {
        if (c->responder)
            c->responder->detach();
        c->socket->disconnect(this);
        c->socket->abort();
        delete c->socket;
    }
}

void HttpListener::route(const QByteArray &path, Handler handler)
{
    m_routes[path] = std::move(handler);
}

bool HttpListener::listen(const QHostAddress &address, quint16 port, QString *error)
{
    if (m_server->listen(address, port))
        return true;
    if (error)
        *error = m_server->errorString();
    return false;
}

quint16 HttpListener::port() const
{
    return m_server->serverPort();
}

qint64 HttpListener::unsent(const Connection *c) const
{
    return c->socket->bytesToWrite() + (c->ssl ? c->ssl->encryptedBytesToWrite() : 0);
}

int HttpListener::unadmittedCount() const
{
    return int(std::count_if(m_connections.begin(), m_connections.end(), [](const auto &c) { return !c->admitted && !c->closing; }));
}

bool HttpListener::makeRoom()
{
    // Those who have shown no credential go first, oldest first; then idle ones that have.
    for (const bool admitted : {false, true})
        for (auto it = m_connections.begin(); it != m_connections.end(); ++it) {
            Connection *c = it->get();
            if (c->admitted == admitted && !c->awaiting && !c->streaming && !c->readingBody && (!admitted || unsent(c) == 0)) {
                c->socket->abort();
                drop(c);
                return true;
            }
        }
    return false;
}

void HttpListener::makeRoomFor(const QHostAddress &peer)
{
    Connection *oldest = nullptr;
    int held = 0;
    for (const auto &c : m_connections)
        if (!c->admitted && !c->closing && !c->awaiting && !c->streaming && c->peer == peer) {
            oldest = oldest ? oldest : c.get();
            ++held;
        }
    if (oldest && held >= m_limits.maxUnadmittedPerAddress) {
        // Said once per address (of the first thousand), not at every connection of a flood.
        if (m_saidAddresses.size() < 1000 && !m_saidAddresses.contains(peer)) {
            m_saidAddresses.insert(peer);
            Q_EMIT problem(QStringLiteral("%1 holds %2 connections on port %3 that have shown no credential, the most one "
                                          "address may: its oldest are closed to make room")
                               .arg(peer.toString())
                               .arg(held)
                               .arg(port()));
        }
        oldest->socket->abort();
        drop(oldest);
    }
}

void HttpListener::acceptPending()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        m_saidExhausted = false;
        const QHostAddress peer = socket->peerAddress();
        makeRoomFor(peer);
        if (int(m_connections.size()) >= m_maxConnections) {
            if (!m_saidCap) {
                m_saidCap = true;
                Q_EMIT problem(QStringLiteral("%1 connections open on port %2, the most this process takes: the oldest "
                                              "idle ones are closed to make room")
                                   .arg(m_maxConnections)
                                   .arg(port()));
            }
            if (!makeRoom()) {
                // Over TLS nothing readable can be said before the handshake: the socket just closes.
                if (!m_tls)
                    socket->write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                socket->flush();
                socket->abort();
                socket->deleteLater();
                continue;
            }
        } else if (int(m_connections.size()) < m_maxConnections / 2) {
            m_saidCap = false;
        }
        auto owned = std::make_unique<Connection>();
        Connection *c = owned.get();
        c->socket = socket;
        c->ssl = qobject_cast<QSslSocket *>(socket);
        c->peer = peer;
        socket->setParent(nullptr);
        socket->setReadBufferSize(kSocketReadBuffer);
        c->timer.setSingleShot(true);
        connect(&c->timer, &QTimer::timeout, this, [this, c] { onTimeout(c); });
        connect(socket, &QTcpSocket::readyRead, this, [this, c] { onReadable(c); });
        connect(socket, &QTcpSocket::disconnected, this, [this, c] { drop(c); });
        connect(socket, &QTcpSocket::bytesWritten, this, [this, c] { closeWhenSent(c); });
        if (c->ssl)
            connect(c->ssl, &QSslSocket::encryptedBytesWritten, this, [this, c] { closeWhenSent(c); });
        connect(socket, &QTcpSocket::errorOccurred, this, [this, c](QAbstractSocket::SocketError e) {
            if (e != QAbstractSocket::RemoteHostClosedError)
                drop(c);
        });
        m_connections.push_back(std::move(owned));
        c->timer.start(m_limits.headerTimeoutMs);  // the handshake (with TLS) and the first head
        if (socket->bytesAvailable() > 0)
            onReadable(c);
    }
}

void HttpListener::onReadable(Connection *c)
{
    if (c->closing || c->streaming) {
        c->socket->readAll();  // what a client sends after its last answer is not read
        return;
    }
    c->buffer += c->socket->readAll();
    // While an answer is awaited, pipelined requests wait in the buffer, within bounds.
    if (c->awaiting) {
        if (c->buffer.size() > m_limits.maxHeaderBytes + c->bodyLimit) {
            c->socket->abort();
            drop(c);
        }
        return;
    }
    process(c);
}

void HttpListener::process(Connection *c)
{
    while (!c->closing && !c->awaiting && !c->streaming) {
        if (c->readingBody) {
            const qint64 wanted = c->head.contentLength - c->head.request.body.size();
            const qint64 take = std::min<qint64>(wanted, c->buffer.size());
            c->head.request.body += c->buffer.left(take);
            c->buffer.remove(0, take);
            if (c->head.request.body.size() < c->head.contentLength)
                return;
            c->readingBody = false;
            finishBody(c);
            serve(c);
            continue;
        }
        if (c->buffer.isEmpty())
            return;
        HttpParse parsed = parseRequestHead(c->buffer, m_limits);
        if (parsed.state == HttpParse::State::Incomplete)
            return;
        if (parsed.state == HttpParse::State::Refused)
            return refuse(c, parsed.status, parsed.reason, parsed.extraHeaders);
        c->buffer.remove(0, parsed.consumed);
        c->keepAlive = parsed.keepAlive;
        c->head = std::move(parsed);
        c->head.request.peer = c->socket->peerAddress();
        c->head.request.secure = c->ssl != nullptr;
        // With QueryPeer the handshake goes on whatever certificate the client shows, and what
        // did not verify against the configured authorities is only listed among the handshake's
        // errors: such a certificate is not the client's identity, so it is not handed on.
        if (c->ssl && c->ssl->sslHandshakeErrors().isEmpty())
            c->head.request.peerCertificate = c->ssl->peerCertificate();
        // Judged before a byte of the body is taken; nothing is reserved for its declared length.
        if (!admit(c))
            return;
        c->readingBody = true;
        c->bodyCounted = c->head.contentLength;
        m_bodyBytesReading += c->bodyCounted;
        if (c->head.contentLength > 0 && c->head.request.header("expect").toLower() == "100-continue")
            c->socket->write("HTTP/1.1 100 Continue\r\n\r\n");
        c->timer.start(m_limits.headerTimeoutMs);  // the body within the same time
    }
}

bool HttpListener::admit(Connection *c)
{
    const qint64 length = c->head.contentLength;
    HttpAdmission admission;
    if (m_admission)
        admission = m_admission(c->head.request, length);
    else
        admission.maxBodyBytes = m_limits.maxBodyBytes;
    if (admission.refusal) {
        const HttpReply &r = *admission.refusal;
        c->buffer.clear();
        answer(c, r.status, r.contentType, r.body, false, c->head.request.method == "HEAD", r.extraHeaders);
        return false;
    }
    if (length > admission.maxBodyBytes) {
        refuse(c, 413, "a request body here may be at most " + QByteArray::number(admission.maxBodyBytes) + " bytes");
        return false;
    }
    if (!admission.owner.isEmpty() && admission.owner != c->owner) {
        const auto held = std::count_if(m_connections.begin(), m_connections.end(),
                                         [&](const auto &other) { return other.get() != c && !other->closing && other->owner == admission.owner; });
        if (held >= m_limits.maxConnectionsPerOwner) {
            refuse(c, 429, admission.owner.toUtf8() + " holds " + QByteArray::number(qint64(held)) + " connections, the most one credential may",
                   "Retry-After: 10\r\n");
            return false;
        }
    }
    if (length > 0 && m_bodyBytesReading + length > m_limits.maxBodyMemory) {
        refuse(c, 503, "too many request bodies are being read at once: try again shortly", "Retry-After: 5\r\n");
        return false;
    }
    c->admitted = !admission.owner.isEmpty();
    c->owner = admission.owner;
    c->bodyLimit = admission.maxBodyBytes;
    return true;
}

void HttpListener::finishBody(Connection *c)
{
    m_bodyBytesReading -= std::exchange(c->bodyCounted, 0);
}

void HttpListener::serve(Connection *c)
{
    const HttpRequest &request = c->head.request;
    const bool headOnly = request.method == "HEAD";
    if (const auto route = m_routes.find(request.path); route != m_routes.end()) {
        const HttpReply reply = route->second(request);
        return answer(c, reply.status, reply.contentType, reply.body, c->keepAlive, headOnly, reply.extraHeaders);
    }
    if (!m_handler)
        return answer(c, 404, "text/plain; charset=utf-8", "no such path: " + request.path.left(200) + '\n', c->keepAlive, headOnly);
    c->awaiting = true;
    c->timer.stop();  // the server's own work is not the client's delay
    c->responder = std::make_shared<HttpResponder>();
    c->responder->m_listener = this;
    c->responder->m_connection = c;
    const std::shared_ptr<HttpResponder> responder = c->responder;
    m_handler(request, responder);
}

void HttpListener::replyTo(Connection *c, const HttpReply &reply)
{
    c->awaiting = false;
    if (c->responder)
        std::exchange(c->responder, {})->detach();  // answered: the responder's part is done
    answer(c, reply.status, reply.contentType, reply.body, c->keepAlive, c->head.request.method == "HEAD", reply.extraHeaders);
    // Requests that came meanwhile, in their turn (not from inside the handler's call).
    if (!c->closing && !c->buffer.isEmpty())
        QTimer::singleShot(0, this, [this, c] {
            if (std::any_of(m_connections.begin(), m_connections.end(), [c](const auto &p) { return p.get() == c; }))
                process(c);
        });
}

bool HttpListener::startStreamOn(Connection *c, int status, const QByteArray &contentType, const QByteArray &extraHeaders)
{
    c->awaiting = false;
    c->streaming = true;
    c->timer.stop();
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    out += "Content-Type: " + contentType + "\r\n" + extraHeaders + "Connection: close\r\n\r\n";
    c->socket->write(out);
    c->lastUnsent = unsent(c);
    c->lastProgress = steadyMs();
    if (c->head.request.method == "HEAD") {  // the head of a stream, and no stream
        endStream(c);
        return false;
    }
    return true;
}

void HttpListener::endStream(Connection *c)
{
    c->streaming = false;
    c->closing = true;
    if (c->responder)
        std::exchange(c->responder, {})->detach();
    // What is still unsent must drain within the usual time, or the reader is cut off.
    c->timer.start(m_limits.headerTimeoutMs);
    closeWhenSent(c);
}

bool HttpListener::writeStream(Connection *c, const QByteArray &chunk)
{
    const qint64 now = steadyMs();
    const qint64 waiting = unsent(c);
    if (waiting == 0 || waiting < c->lastUnsent)
        c->lastProgress = now;
    if (waiting + chunk.size() > m_limits.maxStreamBacklog || now - c->lastProgress > m_limits.streamStallMs) {
        c->socket->abort();
        drop(c);
        return false;
    }
    c->socket->write(chunk);
    c->lastUnsent = unsent(c);
    return true;
}

void HttpListener::answer(Connection *c, int status, const QByteArray &contentType, const QByteArray &body, bool keepAlive,
                          bool headOnly, const QByteArray &extraHeaders)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    out += "Content-Type: " + contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    out += extraHeaders;
    out += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
    if (!headOnly)
        out += body;
    c->socket->write(out);
    // The answer must drain, and the next request arrive, within the same time as headers.
    c->timer.start(m_limits.headerTimeoutMs);
    if (!keepAlive) {
        c->closing = true;
        closeWhenSent(c);
    }
}

// A lingering close: once the last answer has left, only this side closes (FIN), and what the
// client still sends (the rest of a refused body) is read and dropped until it closes too or
// kLingerMs pass. Closing the socket with its bytes unread would reset the connection, and a
// reset can discard the answer in the client's buffers before it is read.
void HttpListener::closeWhenSent(Connection *c)
{
    if (!c->closing || c->halfClosed || c->streaming || unsent(c) > 0)
        return;
    c->halfClosed = true;
    c->socket->flush();
    ::shutdown(int(c->socket->socketDescriptor()), SHUT_WR);
    c->timer.start(std::min(kLingerMs, m_limits.headerTimeoutMs));
}

void HttpListener::refuse(Connection *c, int status, const QByteArray &why, const QByteArray &extraHeaders)
{
    c->buffer.clear();
    answer(c, status, "text/plain; charset=utf-8", reasonPhrase(status) + ": " + why + '\n', false, false, extraHeaders);
}

void HttpListener::onTimeout(Connection *c)
{
    if (c->awaiting || c->streaming)
        return;  // the server's answer is not timed; a stream is bounded by its backlog instead
    if (c->closing || unsent(c) > 0 || c->readingBody || c->buffer.isEmpty() || (c->ssl && !c->ssl->isEncrypted())) {
        // An answer that did not drain, a body that did not come, a handshake that did not
        // finish, or an idle kept-alive connection: closed without a word.
        c->socket->abort();
        drop(c);
        return;
    }
    refuse(c, 408, "the request did not arrive in time");
}

void HttpListener::drop(Connection *c)
{
    const auto it = std::find_if(m_connections.begin(), m_connections.end(), [c](const auto &p) { return p.get() == c; });
    if (it == m_connections.end())
        return;
    std::unique_ptr<Connection> gone = std::move(*it);
    m_connections.erase(it);
    gone->closing = true;
    gone->timer.stop();
    finishBody(gone.get());
    gone->socket->disconnect(this);
    gone->socket->deleteLater();
    if (gone->responder)
        std::exchange(gone->responder, {})->detach();
    // A caller up the stack may still hold it: it goes at the next turn of the event loop.
    m_dropped.push_back(std::move(gone));
    if (m_dropped.size() == 1)
        QTimer::singleShot(0, this, [this] { m_dropped.clear(); });
}

}  // namespace weft::net
