#include "HttpListener.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>

namespace weft::net {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
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

bool equalsIgnoringCase(const QByteArray &a, const char *b)
{
    return a.compare(QByteArray(b), Qt::CaseInsensitive) == 0;
}

}  // namespace

struct HttpListener::Connection
{
    QTcpSocket *socket = nullptr;
    QTimer timer;
    QByteArray buffer;
    HttpRequest request;
    qint64 bodyLeft = 0;  // body bytes of the parsed request still to skip
    bool requestParsed = false;
    bool keepAlive = false;
    bool closing = false;  // answered for the last time; waits for the bytes to leave
};

HttpListener::HttpListener(HttpLimits limits, QObject *parent)
    : QObject(parent), m_limits(limits), m_server(std::make_unique<QTcpServer>())
{
    m_maxConnections = m_limits.maxConnections > 0 ? m_limits.maxConnections
                                                   : std::clamp(openFileLimit() / 4, 4, 64);
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

bool HttpListener::makeRoom()
{
    for (auto it = m_connections.begin(); it != m_connections.end(); ++it) {
        Connection *c = it->get();
        if (!c->closing && c->bodyLeft == 0 && c->socket->bytesToWrite() == 0) {
            c->socket->abort();
            drop(c);
            return true;
        }
    }
    return false;
}

void HttpListener::acceptPending()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        m_saidExhausted = false;
        if (int(m_connections.size()) >= m_maxConnections) {
            if (!m_saidCap) {
                m_saidCap = true;
                Q_EMIT problem(QStringLiteral("%1 connections open on port %2, the most this process takes: the oldest "
                                              "idle ones are closed to make room")
                                   .arg(m_maxConnections)
                                   .arg(port()));
            }
            if (!makeRoom()) {
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
        socket->setParent(nullptr);
        socket->setReadBufferSize(qint64(m_limits.maxHeaderBytes) * 2);
        c->timer.setSingleShot(true);
        connect(&c->timer, &QTimer::timeout, this, [this, c] { onTimeout(c); });
        connect(socket, &QTcpSocket::readyRead, this, [this, c] { onReadable(c); });
        connect(socket, &QTcpSocket::disconnected, this, [this, c] { drop(c); });
        connect(socket, &QTcpSocket::errorOccurred, this, [this, c](QAbstractSocket::SocketError e) {
            if (e != QAbstractSocket::RemoteHostClosedError)
                drop(c);
        });
        m_connections.push_back(std::move(owned));
        c->timer.start(m_limits.headerTimeoutMs);
        if (socket->bytesAvailable() > 0)
            onReadable(c);
    }
}

void HttpListener::onReadable(Connection *c)
{
    if (c->closing) {
        c->socket->readAll();  // what a client sends after its last answer is not read
        return;
    }
    c->buffer += c->socket->readAll();
    for (;;) {
        if (c->requestParsed) {
            const qint64 skip = std::min<qint64>(c->bodyLeft, c->buffer.size());
            c->buffer.remove(0, skip);
            c->bodyLeft -= skip;
            if (c->bodyLeft > 0)
                return;
            c->requestParsed = false;
            serve(c);
            if (c->closing)
                return;
            continue;
        }
        qsizetype end = c->buffer.indexOf("\r\n\r\n");
        qsizetype after = end + 4;
        if (const qsizetype bare = c->buffer.indexOf("\n\n"); bare >= 0 && (end < 0 || bare < end)) {
            end = bare;
            after = bare + 2;
        }
        if (end < 0) {
            if (c->buffer.size() > m_limits.maxHeaderBytes)
                refuse(c, 431, "the request line and headers may be at most " + QByteArray::number(m_limits.maxHeaderBytes) + " bytes");
            return;
        }
        if (after > m_limits.maxHeaderBytes)
            return refuse(c, 431, "the request line and headers may be at most " + QByteArray::number(m_limits.maxHeaderBytes) + " bytes");
        const QByteArray head = c->buffer.left(end);
        c->buffer.remove(0, after);

        QList<QByteArray> lines = head.split('\n');
        for (QByteArray &line : lines)
            if (line.endsWith('\r'))
                line.chop(1);
        const QList<QByteArray> words = lines.front().split(' ');
        if (words.size() != 3 || words[1].isEmpty() || !words[2].startsWith("HTTP/"))
            return refuse(c, 400, "not an HTTP request line");
        if (words[2] != "HTTP/1.1" && words[2] != "HTTP/1.0")
            return refuse(c, 505, "HTTP/1.0 and HTTP/1.1 only");
        HttpRequest request;
        request.method = words[0];
        const qsizetype question = words[1].indexOf('?');
        request.path = question < 0 ? words[1] : words[1].left(question);
        request.query = question < 0 ? QByteArray() : words[1].mid(question + 1);
        bool keepAlive = words[2] == "HTTP/1.1";
        qint64 contentLength = 0;
        bool chunked = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon <= 0)
                return refuse(c, 400, "a header line without a name and a colon");
            const QByteArray name = lines[i].left(colon).trimmed();
            const QByteArray value = lines[i].mid(colon + 1).trimmed();
            if (equalsIgnoringCase(name, "Content-Length")) {
                bool ok = false;
                contentLength = value.toLongLong(&ok);
                if (!ok || contentLength < 0)
                    return refuse(c, 400, "a Content-Length that is not a number");
            } else if (equalsIgnoringCase(name, "Transfer-Encoding")) {
                chunked = true;
            } else if (equalsIgnoringCase(name, "Connection")) {
                if (value.toLower().contains("close"))
                    keepAlive = false;
                else if (value.toLower().contains("keep-alive"))
                    keepAlive = true;
            }
        }
        if (request.method != "GET" && request.method != "HEAD")
            return refuse(c, 405, "only GET and HEAD are answered here", "Allow: GET, HEAD\r\n");
        if (chunked || contentLength > m_limits.maxBodyBytes)
            return refuse(c, 413, "a request body may be at most " + QByteArray::number(m_limits.maxBodyBytes) + " bytes, and not chunked");
        c->request = std::move(request);
        c->keepAlive = keepAlive;
        c->bodyLeft = contentLength;
        c->requestParsed = true;
    }
}

void HttpListener::serve(Connection *c)
{
    const bool headOnly = c->request.method == "HEAD";
    const auto route = m_routes.find(c->request.path);
    if (route == m_routes.end())
        return answer(c, 404, "text/plain; charset=utf-8", "no such path: " + c->request.path.left(200) + '\n', c->keepAlive, headOnly);
    const HttpReply reply = route->second(c->request);
    answer(c, reply.status, reply.contentType, reply.body, c->keepAlive, headOnly);
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
        c->socket->disconnectFromHost();  // after the bytes are written; then `disconnected`
    }
}

void HttpListener::refuse(Connection *c, int status, const QByteArray &why, const QByteArray &extraHeaders)
{
    c->buffer.clear();
    answer(c, status, "text/plain; charset=utf-8", reasonPhrase(status) + ": " + why + '\n', false, false, extraHeaders);
}

void HttpListener::onTimeout(Connection *c)
{
    if (c->closing || c->socket->bytesToWrite() > 0 || c->bodyLeft > 0 || c->buffer.isEmpty()) {
        // An answer that did not drain, a body that did not come, or an idle kept-alive
        // connection: closed without a word.
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
    gone->socket->disconnect(this);
    gone->socket->deleteLater();
    // A caller up the stack may still hold it: it goes at the next turn of the event loop.
    m_dropped.push_back(std::move(gone));
    if (m_dropped.size() == 1)
        QTimer::singleShot(0, this, [this] { m_dropped.clear(); });
}

}  // namespace weft::net
