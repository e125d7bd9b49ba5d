/// @brief Private: a DcmSCU configured for one node, whose failures become one-line PacsErrors naming the node.
#pragma once

#include "lucent/net/PacsNode.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmnet/scu.h>
#include <dcmtk/dcmtls/tlslayer.h>

#include <memory>
#include <string>
#include <vector>

namespace lucent::net {

/// Silences DCMTK's own logging (once): our one-line messages say what failed.
void quietDcmtkLog();

/// Transfer syntaxes offered for images: uncompressed first, then what our reader decodes.
const std::vector<std::string>& offeredTransferSyntaxes();

/// Holds the TLS layer in a base constructed before DcmSCU and destroyed after it: the association
/// DcmSCU closes in its destructor still uses the layer.
struct TlsLayerHolder {
    std::unique_ptr<DcmTLSTransportLayer> m_tls;
};

class ScuSession : private TlsLayerHolder, public DcmSCU {
public:
    explicit ScuSession(const PacsNode& node);
    ~ScuSession() override;

    const PacsNode& node() const { return m_node; }
    void offer(const std::string& abstractSyntax, const std::vector<std::string>& transferSyntaxes,
               T_ASC_SC_ROLE role = ASC_SC_ROLE_DEFAULT);
    /// Initialises the network and negotiates; PacsError saying why the node could not be reached.
    void connect(const std::string& service);
    /// Releases the association (a failure to release is not an error: the work is done).
    void finish();
    /// The accepted context for `abstractSyntax`, or PacsError saying the node refused the service.
    T_ASC_PresentationContextID contextFor(const std::string& abstractSyntax, const std::string& service);
    /// PacsError "NODE: WHAT failed: CONDITION" (timeouts and closed connections said plainly).
    [[noreturn]] void fail(const std::string& what, const OFCondition& cond) const;
    [[noreturn]] void fail(const std::string& what) const;

private:
    void secure();

    PacsNode m_node;
};

/// The status word as DICOM writes it: "0xA700".
std::string statusText(unsigned status);

}  // namespace lucent::net
