/// @brief Fuzz target support: environment, scratch folder with detached data files, volume-file body.
#include "FuzzSupport.h"

#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/GeometryCheck.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace lucent::fuzz {

namespace {

std::string makeScratchFolder() {
    // The DICOM targets write every input to a file: in memory (/dev/shm) when there is one.
    std::error_code ec;
    const auto base = std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0
                          ? std::filesystem::path("/dev/shm")
                          : std::filesystem::temp_directory_path();
    // A crash or a kill skips the removal at exit: folders of processes that are gone go now.
    for (const auto& entry : std::filesystem::directory_iterator(base, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("lucent-fuzz-")) continue;
        const long pid = std::strtol(name.c_str() + 12, nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            std::filesystem::remove_all(entry.path(), ec);
    }
    const auto folder = base / ("lucent-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    std::string raw(4096, '\0');
    for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<char>(i * 7 + i / 256);
    std::ofstream(folder / "data.raw", std::ios::binary) << raw;
    const auto gz = io::gzipBuffer({raw});
    std::ofstream(folder / "data.raw.gz", std::ios::binary).write(gz.data(), static_cast<std::streamsize>(gz.size()));
    return folder.string();
}

}  // namespace

void initialise() {
    ::setenv("LUCENT_READ_LIMIT_MB", "256", 0);
    scratchFolder();
    // libFuzzer ends with exit(). Registered after the folder's name exists, so this runs before
    // the name is destroyed.
    std::atexit([] {
        std::error_code ec;
        std::filesystem::remove_all(scratchFolder(), ec);
    });
}

const std::string& scratchFolder() {
    static const std::string folder = makeScratchFolder();
    return folder;
}

std::string writeScratchFile(const std::uint8_t* data, std::size_t size, const std::string& name) {
    const std::string path = scratchFolder() + "/" + name;
    // A new file each time: ext4 flushes a file truncated and rewritten when it is closed.
    ::unlink(path.c_str());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out.flush()) std::abort();  // a harness that cannot write its input would fuzz nothing
    return path;
}

void fuzzVolumeFile(const std::uint8_t* data, std::size_t size, const std::string& name,
                    const std::function<io::RawImage(const std::vector<char>&, const std::string&)>& parse) {
    const std::vector<char> bytes(reinterpret_cast<const char*>(data), reinterpret_cast<const char*>(data) + size);
    const std::string path = scratchFolder() + "/" + name;
    io::RawImage image;
    try {
        image = parse(bytes, path);
        std::vector<std::string> warnings;
        io::checkGeometry(image.geometry, path, warnings);
        io::toVolume(image, path);
    } catch (const IoError&) {
        return;
    }
    // The same image as a mask (--mask, the viewer's mask files).
    try {
        io::toLabelMap(image, path);
    } catch (const IoError&) {
    }
}

}  // namespace lucent::fuzz
