/// @brief C-ECHO, C-FIND and C-STORE with DCMTK's DcmSCU.
#include "lucent/net/PacsClient.h"

#include "ScuSession.h"

#include <dcmtk/dcmdata/dctk.h>

#include <map>
#include <memory>
#include <set>

namespace lucent::net {

namespace {

std::string text(DcmDataset& ds, const DcmTagKey& tag) {
    OFString value;
    // Every value of a multi-valued element (ModalitiesInStudy "CT\SEG"), not only the first.
    ds.findAndGetOFStringArray(tag, value);
    return value.c_str();
}

int number(DcmDataset& ds, const DcmTagKey& tag) {
    const std::string value = text(ds, tag);
    if (value.empty() || value.find_first_not_of(" 0123456789") != std::string::npos) return -1;
    return std::stoi(value);
}

/// The query identifier: the filters with their values, the wanted return keys empty.
void buildQuery(const FindQuery& q, DcmDataset& ds) {
    const bool series = q.level == QueryLevel::Series;
    ds.putAndInsertString(DCM_QueryRetrieveLevel, series ? "SERIES" : "STUDY");
    ds.putAndInsertString(DCM_PatientName, q.patientName.c_str());
    ds.putAndInsertString(DCM_PatientID, q.patientId.c_str());
    ds.putAndInsertString(DCM_StudyInstanceUID, q.studyUid.c_str());
    ds.putAndInsertString(DCM_StudyDate, q.studyDate.c_str());
    ds.putAndInsertString(DCM_StudyDescription, "");
    ds.putAndInsertString(DCM_AccessionNumber, q.accessionNumber.c_str());
    if (series) {
        ds.putAndInsertString(DCM_SeriesInstanceUID, "");
        ds.putAndInsertString(DCM_Modality, q.modality.c_str());
        ds.putAndInsertString(DCM_SeriesNumber, "");
        ds.putAndInsertString(DCM_SeriesDescription, "");
        ds.putAndInsertString(DCM_NumberOfSeriesRelatedInstances, "");
    } else {
        ds.putAndInsertString(DCM_ModalitiesInStudy, q.modality.c_str());
        ds.putAndInsertString(DCM_NumberOfStudyRelatedInstances, "");
    }
}

FindRecord readRecord(DcmDataset& ds, QueryLevel level) {
    FindRecord r;
    r.patientName = text(ds, DCM_PatientName);
    r.patientId = text(ds, DCM_PatientID);
    r.studyUid = text(ds, DCM_StudyInstanceUID);
    r.studyDate = text(ds, DCM_StudyDate);
    r.studyDescription = text(ds, DCM_StudyDescription);
    r.accessionNumber = text(ds, DCM_AccessionNumber);
    if (level == QueryLevel::Series) {
        r.modalities = text(ds, DCM_Modality);
        r.seriesUid = text(ds, DCM_SeriesInstanceUID);
        r.seriesNumber = text(ds, DCM_SeriesNumber);
        r.seriesDescription = text(ds, DCM_SeriesDescription);
        r.instances = number(ds, DCM_NumberOfSeriesRelatedInstances);
    } else {
        r.modalities = text(ds, DCM_ModalitiesInStudy);
        r.instances = number(ds, DCM_NumberOfStudyRelatedInstances);
    }
    return r;
}

/// The header of a file to send (up to its pixel data): SOP class and instance, transfer syntax.
struct OutgoingFile {
    std::string path, sopClass, sopInstance, transferSyntax;
};

OutgoingFile inspect(const std::string& path, const PacsNode& node) {
    DcmFileFormat file;
    const OFCondition cond = file.loadFileUntilTag(path.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength,
                                                   ERM_autoDetect, DCM_PixelData);
    OutgoingFile out{path, {}, {}, {}};
    OFString value;
    if (cond.good() && file.getDataset()->findAndGetOFString(DCM_SOPClassUID, value).good())
        out.sopClass = value.c_str();
    if (cond.good() && file.getDataset()->findAndGetOFString(DCM_SOPInstanceUID, value).good())
        out.sopInstance = value.c_str();
    if (out.sopClass.empty() || out.sopInstance.empty())
        throw PacsError(path + ": not a DICOM instance (no SOP class or instance UID); nothing was sent to " +
                        node.label());
    out.transferSyntax = DcmXfer(file.getDataset()->getOriginalXfer()).getXferID();
    return out;
}

}  // namespace

bool networkingAvailable() { return true; }

void echo(const PacsNode& node) {
    ScuSession scu(node);
    scu.offer(UID_VerificationSOPClass, {UID_LittleEndianImplicitTransferSyntax});
    scu.connect("C-ECHO (verification)");
    const OFCondition cond = scu.sendECHORequest(0);
    if (cond.bad()) scu.fail("C-ECHO failed", cond);
    scu.finish();
}

std::vector<FindRecord> find(const PacsNode& node, const FindQuery& query) {
    ScuSession scu(node);
    scu.offer(UID_FINDStudyRootQueryRetrieveInformationModel,
              {UID_LittleEndianExplicitTransferSyntax, UID_LittleEndianImplicitTransferSyntax});
    scu.connect("C-FIND (study root)");
    const T_ASC_PresentationContextID id = scu.contextFor(UID_FINDStudyRootQueryRetrieveInformationModel, "C-FIND");
    DcmDataset keys;
    buildQuery(query, keys);
    OFList<QRResponse*> responses;
    const OFCondition cond = scu.sendFINDRequest(id, &keys, &responses);
    std::vector<FindRecord> records;
    unsigned finalStatus = 0;
    for (QRResponse* r : responses) {
        std::unique_ptr<QRResponse> owned(r);
        if (r->m_dataset && DICOM_PENDING_STATUS(r->m_status))
            records.push_back(readRecord(*r->m_dataset, query.level));
        finalStatus = r->m_status;
    }
    if (cond.bad()) scu.fail("C-FIND failed", cond);
    if (finalStatus != STATUS_Success) scu.fail("C-FIND failed with status " + statusText(finalStatus));
    scu.finish();
    return records;
}

void store(const PacsNode& node, const std::vector<std::string>& files) {
    quietDcmtkLog();
    std::vector<OutgoingFile> outgoing;
    for (const std::string& f : files) outgoing.push_back(inspect(f, node));
    ScuSession scu(node);
    // One context per (SOP class, transfer syntax) as the file holds it, and per SOP class one in
    // uncompressed syntaxes, into which DCMTK converts when the node refuses the file's own.
    std::set<std::pair<std::string, std::string>> offered;
    std::set<std::string> classes;
    for (const OutgoingFile& f : outgoing) {
        if (offered.insert({f.sopClass, f.transferSyntax}).second) scu.offer(f.sopClass, {f.transferSyntax});
        if (classes.insert(f.sopClass).second)
            scu.offer(f.sopClass, {UID_LittleEndianExplicitTransferSyntax, UID_LittleEndianImplicitTransferSyntax});
    }
    if (offered.size() + classes.size() > 128)
        throw PacsError(node.label() + ": too many different kinds of instance for one association (" +
                        std::to_string(offered.size() + classes.size()) + " contexts, at most 128); send fewer files");
    scu.setDatasetConversionMode(OFTrue);
    scu.connect("C-STORE");
    for (const OutgoingFile& f : outgoing) {
        Uint16 status = 0;
        const OFCondition cond = scu.sendSTORERequest(0, f.path.c_str(), nullptr, status);
        if (cond.bad()) scu.fail("C-STORE of " + f.path + " failed", cond);
        // 0xB000, 0xB006, 0xB007: stored with a warning (coercion, elements discarded).
        if (status != STATUS_Success && (status & 0xF000) != 0xB000)
            scu.fail("C-STORE of " + f.path + " refused with status " + statusText(status));
    }
    scu.finish();
}

}  // namespace lucent::net
