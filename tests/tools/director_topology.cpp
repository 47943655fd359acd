// Writes the generated fabrics of tests/fixtures/DirectorFabric.h as ibnetdiscover files, for
// the screenshots of the map (scripts/screenshots.sh) and for looking at them in the desk:
//   weft_director_topology director FILE        the 174-switch director fabric with Aggregation Nodes
//   weft_director_topology small-director FILE  a director of 4 spines and 2 line cards, 6 leaves
//   weft_director_topology sharp FILE           a 180-switch fat-tree with Aggregation Nodes

#include "DirectorFabric.h"

#include <QCoreApplication>
#include <QSaveFile>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString kind = args.size() == 3 ? args[1] : QString();
    QByteArray text;
    if (kind == QLatin1String("director")) {
        text = weft::test::directorTopology();
    } else if (kind == QLatin1String("small-director")) {
        weft::test::DirectorOptions small;
        small.spines = 4;
        small.lineCards = 2;
        small.externalPorts = 8;
        small.leaves = 6;
        small.uplinksPerLeaf = 4;
        small.hosts = 24;
        text = weft::test::directorTopology(small);
    } else if (kind == QLatin1String("sharp")) {
        text = weft::test::sharpFatTreeTopology();
    } else {
        std::fprintf(stderr, "usage: weft_director_topology director|small-director|sharp FILE\n");
        return 2;
    }
    QSaveFile file(args[2]);
    if (text.isEmpty() || !file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        std::fprintf(stderr, "weft_director_topology: cannot write %s\n", qPrintable(args[2]));
        return 1;
    }
    return 0;
}
