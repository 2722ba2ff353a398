#pragma once
// A Hugging Face Hub on the loopback address, for tests: it answers each request by its path
// from a table and records what it was asked. Never the internet.

#include <QHash>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <memory>

// Answers each request by its path from a table; records what it was asked.
class HubFixture : public QTcpServer {
public:
    struct Answer {
        int status = 200;
        QByteArray body;
        QByteArray location;        // a redirect's target
        qint64 declaredLength = -1; // a Content-Length other than the body's: a cut-short answer
        int delayMs = 0;
    };
    QHash<QByteArray, Answer> routes;
    QList<QByteArray> paths;
    QList<QByteArray> authorizations;

    HubFixture() { QVERIFY(listen(QHostAddress::LocalHost)); }
    QString endpoint() const { return QStringLiteral("http://127.0.0.1:%1").arg(serverPort()); }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QTcpSocket(this);
        socket->setSocketDescriptor(descriptor);
        auto request = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, request] {
            request->append(socket->readAll());
            if (!request->contains("\r\n\r\n"))
                return;
            const QList<QByteArray> lines = request->split('\n');
            const QByteArray path = lines.front().split(' ').value(1);
            paths << path;
            for (const QByteArray &line : lines)
                if (line.toLower().startsWith("authorization:"))
                    authorizations << line.mid(14).trimmed();
            answer(socket, routes.value(path, Answer{404, "Entry not found", {}, -1, 0}));
        });
    }

private:
    void answer(QTcpSocket *socket, const Answer &a)
    {
        const auto send = [socket, a] {
            QByteArray head = "HTTP/1.1 " + QByteArray::number(a.status) + " Fixture\r\n";
            if (!a.location.isEmpty())
                head += "Location: " + a.location + "\r\n";
            head += "Content-Length: " + QByteArray::number(a.declaredLength >= 0 ? a.declaredLength : a.body.size())
                + "\r\nConnection: close\r\n\r\n";
            socket->write(head + a.body);
            socket->disconnectFromHost();
        };
        if (a.delayMs > 0)
            QTimer::singleShot(a.delayMs, socket, send);
        else
            send();
    }
};
