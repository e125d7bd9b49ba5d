/// @brief DIMSE service user: C-ECHO, C-FIND, C-GET, C-MOVE and C-STORE against one node (DCMTK behind a plain API).
#pragma once

#include "lucent/net/PacsNode.h"

#include <cstddef>
#include <string>
#include <vector>

namespace lucent::net {

enum class QueryLevel { Study, Series };

/// C-FIND keys; empty ones are returned but do not filter. DICOM matching applies: `*` and `?`
/// wildcards in names, a date range "YYYYMMDD-YYYYMMDD" (either end may be open).
struct FindQuery {
    QueryLevel level = QueryLevel::Study;
    std::string patientName;
    std::string patientId;
    std::string studyDate;
    std::string modality;  ///< ModalitiesInStudy at study level, Modality at series level
    std::string accessionNumber;
    std::string studyUid;  ///< narrows a series-level query to one study
};

/// One C-FIND answer (series fields stay empty at study level).
struct FindRecord {
    std::string patientName, patientId, studyUid, studyDate, studyDescription, accessionNumber;
    std::string modalities;  ///< "MR" or "CT\\SEG" (study level: the study's modalities)
    std::string seriesUid, seriesNumber, seriesDescription;
    int instances = -1;  ///< NumberOf{Study,Series}RelatedInstances, -1 when not answered
};

/// What to retrieve and where: one folder per series, named by its SeriesInstanceUID, under
/// `destination` (created when absent).
struct RetrieveRequest {
    std::string studyUid;
    std::string seriesUid;  ///< empty: the whole study
    std::string destination;
    /// 0: C-GET. Otherwise C-MOVE to our AE title, received by a storage SCP that Lucent runs on
    /// this port while the move lasts (the node must know our AE title, host and this port).
    int movePort = 0;
};

struct RetrievedSeries {
    std::string seriesUid;
    std::string folder;
    std::size_t files = 0;
};

/// True when this build has DICOM networking (DCMTK); otherwise every call throws PacsError.
bool networkingAvailable();

/// Opens an association and sends C-ECHO; PacsError naming the node when it does not answer.
void echo(const PacsNode& node);

/// Study Root C-FIND at the query's level.
std::vector<FindRecord> find(const PacsNode& node, const FindQuery& query);

/// C-GET (or C-MOVE, see RetrieveRequest::movePort) of a study or a series. Files arrive in a hidden temporary folder
/// under the destination and each series folder is renamed into place only when the node reports no failed
/// sub-operation and every instance it counted (C-FIND) arrived; on any failure nothing of this
/// retrieve is left and PacsError says what was lost. An existing series folder is replaced.
std::vector<RetrievedSeries> retrieve(const PacsNode& node, const RetrieveRequest& request);

/// C-STORE of DICOM files (any SOP class, e.g. a SEG), one association; PacsError names the first
/// file the node refused or that is not DICOM (read before connecting, so nothing is half sent
/// because of a bad file).
void store(const PacsNode& node, const std::vector<std::string>& files);

}  // namespace lucent::net
