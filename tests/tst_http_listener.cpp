// The HTTP listener behind Weft's endpoints: what it answers, and the limits that keep any
// client from holding the process up (methods, header and body sizes, a header timeout, a cap
// on connections that half-open ones cannot lock).

#include "HttpListener.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <QtTest>

#include <memory>
#include <vector>

using namespace weft::net;

namespace {

// Client sockets are driven without blocking: the listener lives on this thread too.
bool connectTo(QTcpSocket &socket, quint16 port)
{
    socket.connectToHost(QHostAddress::LocalHost, port);
    return QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::ConnectedState; }, 5000);
}

// Reads until the answer announced by Content-Length is complete, or the peer closes.
QByteArray answerOf(QTcpSocket &socket, int timeoutMs = 5000, bool headOnly = false)
{
    QByteArray reply;
    auto complete = [&] {
        reply += socket.readAll();
        const qsizetype end = reply.indexOf("\r\n\r\n");
        if (end < 0)
            return socket.state() == QAbstractSocket::UnconnectedState;
        const qsizetype at = reply.indexOf("Content-Length: ");
        if (at < 0 || at > end)
            return true;
        const qint64 length = reply.mid(at + 16, reply.indexOf("\r\n", at) - at - 16).toLongLong();
        return headOnly || reply.size() - (end + 4) >= length;
    };
    QTest::qWaitFor(complete, timeoutMs);
    return reply;
}

int statusOf(const QByteArray &reply)
{
    return reply.startsWith("HTTP/1.1 ") ? reply.mid(9, 3).toInt() : 0;
}

QByteArray bodyOf(const QByteArray &reply)
{
    return reply.mid(reply.indexOf("\r\n\r\n") + 4);
}

}  // namespace

class TestHttpListener : public QObject
{
    Q_OBJECT

    std::unique_ptr<HttpListener> m_listener;
    std::vector<QString> m_problems;

    quint16 start(HttpLimits limits = {})
    {
        m_problems.clear();
        m_listener = std::make_unique<HttpListener>(limits);
        m_listener->route("/metrics", [](const HttpRequest &) { return HttpReply{200, "text/plain", "up 1\n", {}}; });
        connect(m_listener.get(), &HttpListener::problem, this, [this](const QString &m) { m_problems.push_back(m); });
        QString error;
        if (!m_listener->listen(QHostAddress::LocalHost, 0, &error))
            qFatal("cannot listen: %s", qPrintable(error));
        return m_listener->port();
    }

private Q_SLOTS:
    void getHeadAndKeepAlive()
    {
        const quint16 port = start();
        QTcpSocket socket;
        QVERIFY(connectTo(socket, port));
        socket.write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        const QByteArray first = answerOf(socket);
        QCOMPARE(statusOf(first), 200);
        QCOMPARE(bodyOf(first), QByteArray("up 1\n"));
        QVERIFY(first.contains("Connection: keep-alive"));
        // The same connection again, HEAD this time: the headers alone, the length announced.
        socket.write("HEAD /metrics?x=1 HTTP/1.1\r\n\r\n");
        const QByteArray second = answerOf(socket, 5000, true);
        QCOMPARE(statusOf(second), 200);
        QVERIFY(second.contains("Content-Length: 5\r\n"));
        QVERIFY(bodyOf(second).isEmpty());
        // HTTP/1.0 closes after the answer.
        QTcpSocket old;
        QVERIFY(connectTo(old, port));
        old.write("GET /metrics HTTP/1.0\r\n\r\n");
        QCOMPARE(statusOf(answerOf(old)), 200);
        QVERIFY(QTest::qWaitFor([&] { return old.state() == QAbstractSocket::UnconnectedState; }, 5000));
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("header");
        QTest::addRow("POST") << QByteArray("POST /metrics HTTP/1.1\r\nContent-Length: 2\r\n\r\nab") << 405 << QByteArray("Allow: GET, HEAD\r\n");
        QTest::addRow("DELETE") << QByteArray("DELETE /metrics HTTP/1.1\r\n\r\n") << 405 << QByteArray("Allow: GET, HEAD\r\n");
        QTest::addRow("unknown path") << QByteArray("GET /admin HTTP/1.1\r\n\r\n") << 404 << QByteArray();
        QTest::addRow("not HTTP") << QByteArray("hello there\r\n\r\n") << 400 << QByteArray();
        QTest::addRow("HTTP/2 text") << QByteArray("GET /metrics HTTP/2.0\r\n\r\n") << 505 << QByteArray();
        QTest::addRow("header without colon") << QByteArray("GET /metrics HTTP/1.1\r\nbroken\r\n\r\n") << 400 << QByteArray();
        QTest::addRow("10 MB body announced") << QByteArray("GET /metrics HTTP/1.1\r\nContent-Length: 10000000\r\n\r\n") << 413 << QByteArray();
        QTest::addRow("chunked body") << QByteArray("GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") << 413 << QByteArray();
        QTest::addRow("20 KB header") << QByteArray("GET /metrics HTTP/1.1\r\nX-Big: " + QByteArray(20000, 'a') + "\r\n\r\n") << 431 << QByteArray();
    }

    void refusals()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QByteArray, header);
        const quint16 port = start();
        QTcpSocket socket;
        QVERIFY(connectTo(socket, port));
        socket.write(request);
        const QByteArray reply = answerOf(socket);
        QCOMPARE(statusOf(reply), status);
        if (!header.isEmpty())
            QVERIFY2(reply.contains(header), reply.constData());
        if (status == 404)
            return;  // a well-formed request for another path: the connection may go on
        // A refusal ends the connection.
        QVERIFY(reply.contains("Connection: close\r\n"));
        QVERIFY(QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::UnconnectedState; }, 5000));
    }

    // A 10 MB header is not read to its end: the answer comes once the limit is passed.
    void hugeHeaderIsCutShort()
    {
        const quint16 port = start();
        QTcpSocket socket;
        QVERIFY(connectTo(socket, port));
        socket.write("GET /metrics HTTP/1.1\r\nX-Big: ");
        const QByteArray piece(64 * 1024, 'b');
        qint64 sent = 0;
        QByteArray reply;
        while (sent < 10 * 1024 * 1024 && socket.state() == QAbstractSocket::ConnectedState && !reply.contains("\r\n\r\n")) {
            socket.write(piece);
            sent += piece.size();
            QTest::qWait(1);
            reply += socket.readAll();
        }
        reply += answerOf(socket);
        QCOMPARE(statusOf(reply), 431);
        QVERIFY2(sent < 10 * 1024 * 1024, "the whole header was taken in");
    }

    void slowHeadersTimeOut()
    {
        HttpLimits limits;
        limits.headerTimeoutMs = 300;
        const quint16 port = start(limits);
        QTcpSocket socket;
        QVERIFY(connectTo(socket, port));
        socket.write("GET /metrics HTTP/1.1\r\nHost: x\r\n");  // and never the blank line
        QElapsedTimer timer;
        timer.start();
        const QByteArray reply = answerOf(socket, 5000);
        QCOMPARE(statusOf(reply), 408);
        QVERIFY(QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::UnconnectedState; }, 5000));
        QVERIFY2(timer.elapsed() >= 250, qPrintable(QString::number(timer.elapsed())));
        // A connection that says nothing at all is closed without a word.
        QTcpSocket silent;
        QVERIFY(connectTo(silent, port));
        QVERIFY(QTest::qWaitFor([&] { return silent.state() == QAbstractSocket::UnconnectedState; }, 5000));
        QCOMPARE(m_listener->connectionCount(), 0);
    }

    // At the cap, half-open connections make room for a scraper, oldest first, and the
    // listener never holds more than the cap.
    void halfOpenFloodCannotLockOut()
    {
        HttpLimits limits;
        limits.maxConnections = 8;
        const quint16 port = start(limits);
        std::vector<std::unique_ptr<QTcpSocket>> flood;
        for (int i = 0; i < 30; ++i) {
            auto s = std::make_unique<QTcpSocket>();
            QVERIFY(connectTo(*s, port));
            s->write("GET /metrics HTTP/1.1\r\n");
            flood.push_back(std::move(s));
        }
        QVERIFY(QTest::qWaitFor([&] { return m_listener->connectionCount() <= 8; }, 5000));
        QTest::qWait(100);
        QVERIFY(m_listener->connectionCount() <= 8);
        QTcpSocket scraper;
        QVERIFY(connectTo(scraper, port));
        scraper.write("GET /metrics HTTP/1.1\r\n\r\n");
        QCOMPARE(statusOf(answerOf(scraper)), 200);
        QVERIFY(m_listener->connectionCount() <= 8);
        // The first of the flood were closed to make room; the operator was told once.
        QVERIFY(QTest::qWaitFor([&] { return flood.front()->state() == QAbstractSocket::UnconnectedState; }, 5000));
        QCOMPARE(m_problems.size(), std::size_t(1));
        QVERIFY2(m_problems.front().contains(QStringLiteral("8 connections open")), qPrintable(m_problems.front()));
    }
};

QTEST_GUILESS_MAIN(TestHttpListener)
#include "tst_http_listener.moc"
