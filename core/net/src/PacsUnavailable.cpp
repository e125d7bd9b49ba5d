/// @brief DICOM networking for builds without DCMTK: every service says so, naming the node.
#include "lucent/net/PacsClient.h"

namespace lucent::net {

namespace {
[[noreturn]] void unavailable(const PacsNode& node) {
    throw PacsError(node.label() +
                    ": this build of Lucent has no DICOM networking (DCMTK was not found at configure time)");
}
}  // namespace

bool networkingAvailable() { return false; }
void echo(const PacsNode& node) { unavailable(node); }
std::vector<FindRecord> find(const PacsNode& node, const FindQuery&) { unavailable(node); }
std::vector<RetrievedSeries> retrieve(const PacsNode& node, const RetrieveRequest&) { unavailable(node); }
void store(const PacsNode& node, const std::vector<std::string>&) { unavailable(node); }

}  // namespace lucent::net
