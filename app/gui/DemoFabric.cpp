#include "DemoFabric.h"

#include "FabricGenerator.h"
#include "FabricSummary.h"
#include "ProjectFile.h"

#include <QCoreApplication>

namespace weft {

// The demo fabric is generated (the generator is deterministic, so GUIDs are always the same)
// and its tenancy is an ordinary project file in the resources, read and bound through the
// same code as any project the operator opens.
Result<DemoFabric> makeDemoFabric()
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::SwitchRadix;
    options.radix = 12;
    options.levels = 2;
    Result<GeneratedFabric> generated = generateFabric(options);
    if (!generated)
        return generated.error();

    const QString projectPath = QStringLiteral(":/demo/project.weft");
    Result<Project> project = readProjectFile(projectPath);
    if (!project)
        return project.error();
    BoundProject bound = bindProject(*project, generated->fabric);
    if (!bound.missing.isEmpty())
        return Error{projectPath, 0, QStringLiteral("the demo project names GUIDs the demo fabric lacks: %1")
                                         .arg(bound.missing.join(QStringLiteral(", ")))};
    const FabricSummary summary = summarize(generated->fabric);
    DemoFabric demo{std::move(generated->fabric), std::move(bound.project.tenancy), {}};
    demo.title = QCoreApplication::translate("DemoFabric", "Demo fabric (%1-level fat-tree, %2 hosts)")
                     .arg(summary.tiers)
                     .arg(summary.channelAdapters);
    return demo;
}

}  // namespace weft
