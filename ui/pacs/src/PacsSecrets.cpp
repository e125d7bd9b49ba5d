/// @brief Reading a secret from the environment or from the first line of a file.
#include "lucent/pacs/PacsSecrets.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace lucent::pacs {

std::string secretFromFile(const std::string& path, const std::string& what) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) throw std::invalid_argument(what + " " + path + ": cannot read the file");
    const auto first = line.find_first_not_of(" \t\r\n");
    line = first == std::string::npos ? std::string() : line.substr(first, line.find_last_not_of(" \t\r\n") - first + 1);
    if (line.empty()) throw std::invalid_argument(what + " " + path + ": the first line is empty");
    return line;
}

bool secretFromEnvironment(const char* variable, std::string& value) {
    const char* set = std::getenv(variable);
    if (!set) return false;
    value = set;
    return true;
}

}  // namespace lucent::pacs
