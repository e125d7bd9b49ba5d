/// @brief The viewer entry for builds without Qt/VTK/ImGui: says so and points to the CLI.
#include "CommandLine.h"
#include "Commands.h"

namespace lucent::app {

int runViewer(int, char**) {
    throw UsageError("the viewer is not part of this build (Qt 6, VTK and Dear ImGui were not all found); "
                     "use lucent info/convert/segment");
}

}  // namespace lucent::app
