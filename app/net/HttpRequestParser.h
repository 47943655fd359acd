#pragma once
// The head of an HTTP/1.x request (request line and header fields) read from the bytes a
// connection has received so far: a pure function, so the listener and its fuzz target
// (tests/fuzz/fuzz_http_request.cpp) run the same code. Nothing a client sends can make it read
// past the buffer, take more than the limits allow, or accept a method the caller did not allow.

#include <QByteArray>
#include <QHostAddress>
#include <QSslCertificate>

#include <utility>
#include <vector>

namespace weft::net {

struct HttpLimits
{
    int maxHeaderBytes = 8192;
    qint64 maxBodyBytes = 65536;
    int headerTimeoutMs = 10000;                     // the TLS handshake, the head and the body each within it
    int maxConnections = 0;                          // 0: a quarter of the process's open-file limit, at most 64
    std::vector<QByteArray> methods{"GET", "HEAD"};  // others: 405
    qint64 maxStreamBacklog = 1 << 20;               // an event stream's unsent bytes before its reader is cut off
    // Connections not yet admitted (HttpListener::setAdmission: no head with a credential yet) one
    // address may hold; the oldest of them makes room for its next. 0: a quarter of maxConnections.
    int maxUnadmittedPerAddress = 0;
    int maxConnectionsPerOwner = 0;   // connections one admitted owner may hold; 0: a quarter of maxConnections
    qint64 maxBodyMemory = 0;         // bodies being read at once, by their declared lengths; 0: 4 x maxBodyBytes
    int streamStallMs = 60000;        // an event stream whose reader takes nothing for this long is cut off
};

struct HttpRequest
{
    QByteArray method;
    QByteArray path;  // without the query
    QByteArray query;
    std::vector<std::pair<QByteArray, QByteArray>> headers;  // names in lower case, in order
    QByteArray body;
    QHostAddress peer;
    QSslCertificate peerCertificate;  // null unless the client showed one the configured CAs verify
    bool secure = false;              // came over TLS

    // The first field of that name (lower case), or empty.
    QByteArray header(const QByteArray &lowerCaseName) const;
};

struct HttpParse
{
    enum class State { Incomplete,
                       Refused,
                       Parsed };
    State state = State::Incomplete;
    // Refused: the status to answer, why, and any header to send with it (Allow for 405).
    int status = 0;
    QByteArray reason;
    QByteArray extraHeaders;
    // Parsed: the request (without its body), the bytes the head took, the body's length.
    HttpRequest request;
    qsizetype consumed = 0;
    qint64 contentLength = 0;
    bool keepAlive = false;
};

// Parses the head at the start of `buffer`. Incomplete while its end has not arrived and the
// buffer is within limits.maxHeaderBytes.
HttpParse parseRequestHead(const QByteArray &buffer, const HttpLimits &limits);

}  // namespace weft::net
