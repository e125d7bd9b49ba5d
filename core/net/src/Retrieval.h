/// @brief Private: the two ways a retrieve brings instances into an InstanceSink (C-GET, C-MOVE).
#pragma once

#include "InstanceSink.h"
#include "ScuSession.h"

#include "lucent/net/PacsClient.h"

namespace lucent::net {

/// The Study Root identifier of a retrieve: study, or series within it.
void retrieveKeys(const RetrieveRequest& request, DcmDataset& keys);

/// Throws PacsError unless the retrieve ended well: `cond` good, no instance the sink could not
/// keep, no failed sub-operation, a final status of success. `responses` are deleted.
void checkRetrieve(const ScuSession& scu, const std::string& what, const OFCondition& cond,
                   OFList<RetrieveResponse*>& responses, const InstanceSink& sink);

/// C-GET: the node sends the instances back on our association.
void runGet(const PacsNode& node, const RetrieveRequest& request, InstanceSink& sink);

/// C-MOVE to ourselves: a storage SCP listens on request.movePort while the move lasts.
void runMove(const PacsNode& node, const RetrieveRequest& request, InstanceSink& sink);

}  // namespace lucent::net
