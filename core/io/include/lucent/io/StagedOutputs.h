/// @brief Outputs written together: each goes to a temporary file first, and commit() renames them all.
#pragma once

#include "lucent/io/TemporaryFile.h"

#include <string>
#include <utility>
#include <vector>

namespace lucent::io {

/// What commit() does with an output whose name exists when it is renamed into place.
enum class ExistingOutput {
    Replace,  ///< replaced atomically (the default)
    Keep      ///< kept: the rename fails (--no-clobber), even when another process made it meanwhile
};

/// While a StagedOutputs exists, writeFileAtomically() on its thread (and so every writer of
/// lucent_io: volumes, label maps, JSON) leaves each output under its temporary name
/// (`OUT.partial-PID-N`, beside OUT) instead of renaming it. commit() renames them all; if it is
/// never reached (a later output failed, an exception), the destructor removes every temporary,
/// so a command that writes several files leaves all of them or none. Temporaries are removed on
/// SIGINT, SIGTERM and SIGHUP as well (TemporaryFile). Stages do not nest: an inner one commits on
/// its own.
class StagedOutputs {
public:
    explicit StagedOutputs(ExistingOutput existing = ExistingOutput::Replace);
    ~StagedOutputs();
    StagedOutputs(const StagedOutputs&) = delete;
    StagedOutputs& operator=(const StagedOutputs&) = delete;

    /// Renames every staged file to its final name and ends the stage. The signals above wait
    /// until all are renamed. A final name that is a folder is refused before anything is
    /// renamed; if a rename still fails, the outputs renamed before it are removed and IoError
    /// names the file and the cause. With ExistingOutput::Keep each rename is one that cannot
    /// replace (renameat2 RENAME_NOREPLACE, or link() and unlink() of the temporary where the file
    /// system lacks it), so of two processes writing one name only the first succeeds; the other
    /// fails, naming the file, and the file stays as the first wrote it.
    void commit();

    /// The stage open on this thread, or null.
    static StagedOutputs* current();
    /// Takes the written temporary of `path` (writeFileAtomically hands it over); a second output
    /// to the same path replaces the first.
    void adopt(TemporaryFile temporary, const std::string& path);

private:
    std::vector<std::pair<TemporaryFile, std::string>> m_files;
    StagedOutputs* m_previous = nullptr;
    ExistingOutput m_existing = ExistingOutput::Replace;
};

}  // namespace lucent::io
