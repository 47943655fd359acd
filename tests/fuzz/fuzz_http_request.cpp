// libFuzzer target: the head of an HTTP request as `weft serve` and `weft monitor` read it from
// any client (app/net/HttpRequestParser.h). Whatever the bytes, the parse stays within them and
// within the limits, and what it accepts is a request the listener may serve.
#include "FuzzInput.h"
#include "HttpRequestParser.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace weft::net;
    HttpLimits limits;
    limits.maxHeaderBytes = 4096;
    limits.maxBodyBytes = 1024;
    limits.methods = {"GET", "HEAD", "POST", "PUT", "DELETE"};
    const QByteArray buffer = weft::fuzz::input(data, size);
    const HttpParse p = parseRequestHead(buffer, limits);
    switch (p.state) {
    case HttpParse::State::Incomplete:
        if (buffer.size() > limits.maxHeaderBytes)
            weft::fuzz::broken("a head longer than the limit is waited on instead of refused");
        break;
    case HttpParse::State::Refused:
        if (p.status < 400 || p.status > 599 || p.reason.isEmpty())
            weft::fuzz::broken("a refusal without an error status and a reason");
        break;
    case HttpParse::State::Parsed:
        if (p.consumed <= 0 || p.consumed > buffer.size() || p.consumed > limits.maxHeaderBytes)
            weft::fuzz::broken("a parsed head outside the bytes received or the limit");
        if (std::find(limits.methods.begin(), limits.methods.end(), p.request.method) == limits.methods.end())
            weft::fuzz::broken("a method that is not allowed was accepted");
        if (!p.request.path.startsWith('/'))
            weft::fuzz::broken("a path that does not start with '/' was accepted");
        const auto visible = [](const QByteArray &text) { return std::none_of(text.begin(), text.end(), [](char c) { return c <= ' ' || c == 0x7f; }); };
        if (!visible(p.request.path) || !visible(p.request.query))
            weft::fuzz::broken("a request target with a space or a control character was accepted");
        if (p.contentLength < 0 || p.contentLength > limits.maxBodyBytes)
            weft::fuzz::broken("a body length outside the limit was accepted");
        for (const auto &[name, value] : p.request.headers) {
            if (name != name.toLower() || name.isEmpty())
                weft::fuzz::broken("a header name not in lower case");
            if (value.contains('\r') || value.contains('\n') || value.contains('\0'))
                weft::fuzz::broken("a header value with a line break or a NUL was accepted");
        }
        // The same bytes with more after them parse to the same head: the parse does not read on.
        const HttpParse again = parseRequestHead(buffer + "GET / HTTP/1.1\r\n\r\n", limits);
        if (again.state != HttpParse::State::Parsed || again.consumed != p.consumed || again.request.path != p.request.path)
            weft::fuzz::broken("a head parsed differently once more bytes followed it");
        break;
    }
    return 0;
}
