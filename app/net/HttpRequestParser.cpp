#include "HttpRequestParser.h"

#include <algorithm>

namespace weft::net {

namespace {

HttpParse refused(int status, QByteArray reason, QByteArray extraHeaders = {})
{
    HttpParse p;
    p.state = HttpParse::State::Refused;
    p.status = status;
    p.reason = std::move(reason);
    p.extraHeaders = std::move(extraHeaders);
    return p;
}

// RFC 9110's token characters: what a method and a field name may be made of.
bool isToken(const QByteArray &text)
{
    if (text.isEmpty())
        return false;
    static const QByteArray extra = "!#$%&'*+-.^_`|~";
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || extra.contains(c);
    });
}

// What a request target may hold: visible ASCII, no spaces and no control characters, so that
// a handler never meets a byte a log line or a file name could be fooled by.
bool isTarget(const QByteArray &text)
{
    return text.startsWith('/') && std::all_of(text.begin(), text.end(), [](char c) { return c > ' ' && c < 0x7f; });
}

// A field value: no control character but the tab (a stray CR, a NUL).
bool isFieldValue(const QByteArray &text)
{
    return std::all_of(text.begin(), text.end(), [](char c) { return c == '\t' || (quint8(c) >= ' ' && c != 0x7f); });
}

bool isDigits(const QByteArray &text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

QByteArray HttpRequest::header(const QByteArray &lowerCaseName) const
{
    for (const auto &[name, value] : headers)
        if (name == lowerCaseName)
            return value;
    return {};
}

HttpParse parseRequestHead(const QByteArray &buffer, const HttpLimits &limits)
{
    const QByteArray tooLarge = "the request line and headers may be at most " + QByteArray::number(limits.maxHeaderBytes) + " bytes";
    qsizetype end = buffer.indexOf("\r\n\r\n");
    qsizetype after = end + 4;
    if (const qsizetype bare = buffer.indexOf("\n\n"); bare >= 0 && (end < 0 || bare < end)) {
        end = bare;
        after = bare + 2;
    }
    if (end < 0)
        return buffer.size() > limits.maxHeaderBytes ? refused(431, tooLarge) : HttpParse();
    if (after > limits.maxHeaderBytes)
        return refused(431, tooLarge);

    QList<QByteArray> lines = buffer.left(end).split('\n');
    for (QByteArray &line : lines)
        if (line.endsWith('\r'))
            line.chop(1);
    const QList<QByteArray> words = lines.front().split(' ');
    if (words.size() != 3 || !isToken(words[0]) || !isTarget(words[1]) || !words[2].startsWith("HTTP/"))
        return refused(400, "not an HTTP request line");
    if (words[2] != "HTTP/1.1" && words[2] != "HTTP/1.0")
        return refused(505, "HTTP/1.0 and HTTP/1.1 only");

    HttpParse p;
    HttpRequest &request = p.request;
    request.method = words[0];
    const qsizetype question = words[1].indexOf('?');
    request.path = question < 0 ? words[1] : words[1].left(question);
    request.query = question < 0 ? QByteArray() : words[1].mid(question + 1);
    p.keepAlive = words[2] == "HTTP/1.1";
    bool chunked = false, lengthSeen = false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon <= 0 || !isToken(lines[i].left(colon)))
            return refused(400, "a header line without a name and a colon");
        const QByteArray name = lines[i].left(colon).toLower();
        const QByteArray value = lines[i].mid(colon + 1).trimmed();
        if (!isFieldValue(value))
            return refused(400, "a header value with a control character");
        if (name == "content-length") {
            // Digits alone: no sign, no list, nothing a proxy in front might read differently.
            bool ok = false;
            const qint64 length = isDigits(value) ? value.toLongLong(&ok) : -1;
            if (!ok || length < 0 || (lengthSeen && length != p.contentLength))
                return refused(400, "a Content-Length that is not one number");
            p.contentLength = length;
            lengthSeen = true;
        } else if (name == "transfer-encoding") {
            chunked = true;
        } else if (name == "connection") {
            if (value.toLower().contains("close"))
                p.keepAlive = false;
            else if (value.toLower().contains("keep-alive"))
                p.keepAlive = true;
        }
        request.headers.emplace_back(name, value);
    }
    if (std::find(limits.methods.begin(), limits.methods.end(), request.method) == limits.methods.end()) {
        QByteArray allowed;
        for (const QByteArray &m : limits.methods)
            allowed += (allowed.isEmpty() ? "" : ", ") + m;
        return refused(405, "only " + allowed + " are answered here", "Allow: " + allowed + "\r\n");
    }
    // A body comes with its length announced; a chunked one could not be bounded before it is read.
    if (chunked || p.contentLength > limits.maxBodyBytes)
        return refused(413, "a request body may be at most " + QByteArray::number(limits.maxBodyBytes) + " bytes, with its Content-Length, not chunked");
    p.state = HttpParse::State::Parsed;
    p.consumed = after;
    return p;
}

}  // namespace weft::net
