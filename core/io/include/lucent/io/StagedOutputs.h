/// @brief Outputs written together: each goes to a temporary file first, and commit() renames them all.
#pragma once

#include "lucent/io/TemporaryFile.h"

#include <string>
#include <utility>
#include <vector>

namespace lucent::io {

/// While a StagedOutputs exists, writeFileAtomically() on its thread (and so every writer of
/// lucent_io: volumes, label maps, JSON) leaves each output under its temporary name
/// (`OUT.partial-PID-N`, beside OUT) instead of renaming it. commit() renames them all; if it is
/// never reached (a later output failed, an exception), the destructor removes every temporary,
/// so a command that writes several files leaves all of them or none. Temporaries are removed on
/// SIGINT, SIGTERM and SIGHUP as well (TemporaryFile). Stages do not nest: an inner one commits on
/// its own.
class StagedOutputs {
public:
    StagedOutputs();
    ~StagedOutputs();
    StagedOutputs(const StagedOutputs&) = delete;
    StagedOutputs& operator=(const StagedOutputs&) = delete;

    /// Renames every staged file to its final name and ends the stage. The signals above wait
    /// until all are renamed. A final name that is a folder is refused before anything is
    /// renamed; if a rename still fails, the outputs renamed before it are removed and IoError
    /// names the file and the cause.
    void commit();

    /// The stage open on this thread, or null.
    static StagedOutputs* current();
    /// Takes the written temporary of `path` (writeFileAtomically hands it over); a second output
    /// to the same path replaces the first.
    void adopt(TemporaryFile temporary, const std::string& path);

private:
    std::vector<std::pair<TemporaryFile, std::string>> m_files;
    StagedOutputs* m_previous = nullptr;
};

}  // namespace lucent::io
