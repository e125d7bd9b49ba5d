/// @brief The `lucent` executable: CLI sub-commands (info, convert, segment, version), else the viewer.
#include "CommandLine.h"
#include "Commands.h"
#include "SegmentOptions.h"
#include "StageReport.h"

#include "lucent/core/Errors.h"
#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/Methods.h"
#include "lucent/io/FileSuffixes.h"
#include "lucent/io/FileUtil.h"

#include <iostream>

namespace lucent::app {

namespace {

using CommandFunction = int (*)(const std::vector<std::string>&);
/// Every sub-command, once: dispatch and the typo suggestion both read this list.
const std::pair<const char*, CommandFunction> kCommands[] = {
    {"info", runInfo},     {"convert", runConvert}, {"segment", runSegment}, {"export", runExport},
    {"stats", runStats},   {"islands", runIslands}, {"pacs", runPacs},
    {"db", runDb},         {"interpolate", runInterpolate},
    {"version", [](const std::vector<std::string>&) { return runVersion(); }}};

/// The usage text; the suffix lists come from io (FileSuffixes.h), so it names every one that works.
std::string usage() {
    const std::string volumeOut = io::suffixPattern(io::kVolumeWriteSuffixes);
    const std::string labelOut = io::suffixPattern(io::kLabelWriteSuffixes);
    const std::string surfaceOut = io::suffixPattern(io::kSurfaceSuffixes);
    const std::string methods = methodKeyList("|", "|"), backends = backendKeyList("|", "|");
    std::string liveMethods;
    for (const MethodInfo& m : methodTable()) liveMethods += (liveMethods.empty() ? "" : "|") + std::string(m.key);
    return "usage: lucent [PATH] [--mask MASK] [--preset NAME] [--layout 1x1|2x2|1+3] [--series ID] [--screenshot OUT.png]\n"
           "              [--live " + liveMethods + " [options of segment for it] [--steps N] [--speed STEPS_PER_S|max]\n"
           "                     [--record OUT.mp4|DIR [--record-every K] [--record-fps F]\n"
           "                      [--record-view window|axial|coronal|sagittal|3d [--record-size WxH]]] [--accept]]\n"
           "              (--record-view: one view alone, without menus and panels, at --record-size pixels)\n"
           "              [--recover]   (restore the newest recovery copy of a Lucent that did not close normally)\n"
           "       lucent --demo [PATH] [--speed STEPS_PER_S|max] [--record OUT.mp4|DIR [--record-every K] [--record-fps F]]\n"
           "              (the CT head, or PATH: a snake, then region growing, each start shown first, at --speed\n"
           "              (default: 10 steps/s for the snake, 60 for region growing); recorded to lucent-demo.mp4\n"
           "              without a display, an MP4 at the same pace)\n"
           "       (PATH may be a session, SESSION.lucent: its data, window, layout, labels and measurements)\n"
           "       lucent info PATH [--json] [--threads N]   (every volume under PATH: DICOM series and volume\n"
           "              files " + io::suffixPattern(io::kVolumeReadSuffixes) + ", each with the ID --series takes)\n"
           "       lucent convert PATH -o|--output OUT." + volumeOut + " [--series ID|all] [--threads N]\n"
           "       lucent segment PATH --method " + methods + " [options] -o MASK." + labelOut + "\n"
           "              [--threads N] [--backend " + backends + "] [--stats STATS.json|STATS.csv|-] [--series ID|all]\n"
           "              [--roi i0,j0,k0,i1,j1,k1] [--steps N]   (N engine steps, then stop: a live run's step N)\n"
           "         seeds of srg and fc (repeatable, any mix): --seed i,j,k (voxel index of the loaded volume),\n"
           "                --seed-lps x,y,z | --seed-ras x,y,z (mm, nearest voxel), --seeds FILE (.csv x,y,z LPS | .mrk.json)\n"
           "         srg:   SEEDS " + parameterSynopsis(Method::RegionGrowing) + "\n"
           "                (no bounds: estimated at the first seed)\n"
           "         fc:    SEEDS " + parameterSynopsis(Method::FuzzyConnectedness) + "\n"
           "                [--connectivity-map OUT." + volumeOut + "]\n"
           "         fcm:   " + parameterSynopsis(Method::FuzzyCMeans) + " [--mask FILE]\n"
           "                [--memberships OUT." + volumeOut + "]\n"
           "         snake: --slice k --rect i0,j0,i1,j1 " + parameterSynopsis(Method::Snake) + " [--polygon OUT.json]\n"
           "         snake3d: --box i0,j0,k0,i1,j1,k1 [--seed i,j,k --radius MM ...] [--seed-lps x,y,z | --seed-ras x,y,z]\n"
           "                " + parameterSynopsis(Method::Snake3d) + "\n"
           "                (box and / or bubbles; the domain is --roi or the start grown by --margin; without\n"
           "                --iterations it runs until the surface stops changing)\n"
           "         growcut: --seeds-mask SEEDS   (a label file on PATH's grid, 0 = no seed: each voxel takes the\n"
           "                label of the seed it reaches along the least summed intensity change)\n"
           "       parameters of segment and --live [default; accepted values; unit]:\n" +
           parameterHelp("         ") +
           "       --series all (convert, segment): every volume under PATH; each output name holds {series}\n"
           "              (series number and description, or the file's name); a failing volume does not stop the others\n"
           "       exit codes: 0 done, 1 failed (one line naming the input; nothing written), 2 usage error (a malformed\n"
           "              or out-of-range option, srg or fc without a seed: found before any input is read)\n"
           "       lucent export MASK --reference PATH -o OUT." + labelOut + " [--series ID]\n"
           "              [--labels 1,2,...] [--name TEXT] [--space lps|ras]\n"
           "              (OUT_{label}." + surfaceOut + ": one surface file per label, {label} replaced by its value)\n"
           "       lucent islands MASK -o OUT." + volumeOut + " [--remove-smaller-than ML] [--keep-largest]\n"
           "              [--fill-holes] [--labels 1,2,...]   (applied in that order, per label, 6-connected)\n"
           "       lucent interpolate MASK [--axis i|j|k] [--labels 1,2,...] -o OUT." + volumeOut + "\n"
           "              [--method morphological|signed-distance] [--backend " + backendKeyList("|", "|") + "]\n"
           "              (each label filled between the slices of the axis that hold it, by morphological\n"
           "              contour interpolation unless told; no --axis: the axis along which the labels are\n"
           "              sparse; CUDA fills the CPU's voxels by either method)\n"
           "       lucent stats MASK --reference PATH [--series ID] [--json|--csv]   (per-label figures)\n"
           "       lucent pacs echo --pacs AET@HOST:PORT|URL [--aet OURS] [--timeout S] [--tls [--ca-file PEM]]\n"
           "       lucent pacs find --pacs AET@HOST:PORT|URL [--patient-name P] [--patient-id I] [--study-date D1-D2]\n"
           "              [--modality M] [--accession A] [--study UID] [--level study|series] [--json]\n"
           "       lucent pacs get --pacs AET@HOST:PORT|URL --study UID [--series UID] [-o DIR] [--move-port P]\n"
           "       lucent pacs send --pacs AET@HOST:PORT|URL FILE...\n"
           "              URL: a DICOMweb root, http(s)://HOST:PORT/PATH (QIDO-RS, WADO-RS, STOW-RS); with it\n"
           "              --user NAME (password in LUCENT_PACS_PASSWORD, else asked) or --token-file FILE\n"
           "              (else LUCENT_PACS_TOKEN) for a bearer token; --ca-file PEM: authorities trusted for https\n"
           "              besides the system's; get without -o: into the study database's cache\n"
           "       lucent db list [--json]      (the local study database: LUCENT_DB, else\n"
           "              $XDG_DATA_HOME/lucent/studies.sqlite; retrieved series are kept beside it in dicom/)\n"
           "       lucent db import PATH        (indexes the DICOM series under PATH where they are)\n"
           "       info, convert, segment, export, stats, islands, interpolate also take --quiet (no summary, no warnings) and\n"
           "              --progress (progress on stderr even when it is no terminal);\n"
           "              convert, segment, export, islands, interpolate --no-clobber\n"
           "       lucent version | --version\n"
           "       lucent --help | -h\n";
}

}  // namespace

}  // namespace lucent::app

int main(int argc, char** argv) {
    using namespace lucent::app;
    const StageReport stageReport;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << usage();
        return 0;
    }
    if (args.empty()) args.push_back("");  // no arguments: the viewer with no volume
    const std::string command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        for (const auto& [name, run] : kCommands)
            if (command == name) return run(rest);
        if (command == "--version") return runVersion();
        // A word that is no command and names nothing to open is a mistyped command, not a file to view.
        if (!command.empty() && command[0] != '-' && !looksLikeInput(command)) {
            std::vector<std::string> known;
            for (const auto& c : kCommands) known.push_back(c.first);
            std::cerr << "lucent: " << unknownCommandMessage(command, known) << " (see lucent --help)\n";
            return 2;
        }
        // Anything else is the viewer's command line: lucent [PATH] [--screenshot OUT.png] ...
        return runViewer(argc, argv);
    } catch (const UsageError& e) {
        // One line naming the problem: the full usage is for --help.
        std::cerr << "lucent " << command << ": " << lucent::io::printable(e.what()) << " (see lucent --help)\n";
        return 2;
    } catch (const lucent::Cancelled&) {
        std::cerr << "lucent " << command << ": cancelled\n";
        return 1;
    } catch (const std::exception& e) {
        // Messages quote file names and header bytes: escaped, they stay one line and inert.
        std::cerr << "lucent " << command << ": error: " << lucent::io::printable(e.what()) << "\n";
        return 1;
    }
}
