/// @brief The study database for builds without Qt SQL: opening one says so.
#include "lucent/pacs/StudyDatabase.h"

#include <stdexcept>

namespace lucent::pacs {

struct StudyDatabase::Impl {};

StudyDatabase::StudyDatabase(const std::string& path, const std::string&) {
    throw std::runtime_error(path +
                             ": this build of Lucent has no study database (built without Qt 6 SQL)");
}
StudyDatabase::~StudyDatabase() = default;
bool StudyDatabase::available() { return false; }
const std::string& StudyDatabase::recoveryMessage() const {
    static const std::string none;
    return none;
}
std::string StudyDatabase::connectionName() const { return {}; }

const std::string& StudyDatabase::path() const {
    static const std::string none;
    return none;
}

std::vector<StudySeries> StudyDatabase::importPath(const std::string&, std::vector<std::string>*,
                                                   const ProgressCallback&) {
    return {};
}
std::vector<StudySeries> StudyDatabase::importPaths(const std::vector<std::string>&) { return {}; }
StudySeries StudyDatabase::addOpened(const SeriesInfo&) { return {}; }

void StudyDatabase::add(const std::vector<StudySeries>&, const ProgressCallback&) {}
std::vector<StudySeries> StudyDatabase::list() const { return {}; }
bool StudyDatabase::removeStudy(const std::string&) { return false; }

}  // namespace lucent::pacs
