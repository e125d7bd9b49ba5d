/// @brief The 348-byte NIfTI-1 header, laid out as nifti1.h defines it.
#pragma once

#include <cstdint>

namespace lucent::io {

#pragma pack(push, 1)
struct NiftiHeader {
    std::int32_t sizeof_hdr;
    char data_type[10];
    char db_name[18];
    std::int32_t extents;
    std::int16_t session_error;
    char regular;
    char dim_info;
    std::int16_t dim[8];
    float intent_p1, intent_p2, intent_p3;
    std::int16_t intent_code;
    std::int16_t datatype;
    std::int16_t bitpix;
    std::int16_t slice_start;
    float pixdim[8];
    float vox_offset;
    float scl_slope;
    float scl_inter;
    std::int16_t slice_end;
    char slice_code;
    char xyzt_units;
    float cal_max, cal_min;
    float slice_duration;
    float toffset;
    std::int32_t glmax, glmin;
    char descrip[80];
    char aux_file[24];
    std::int16_t qform_code;
    std::int16_t sform_code;
    float quatern_b, quatern_c, quatern_d;
    float qoffset_x, qoffset_y, qoffset_z;
    float srow_x[4];
    float srow_y[4];
    float srow_z[4];
    char intent_name[16];
    char magic[4];
};
#pragma pack(pop)
static_assert(sizeof(NiftiHeader) == 348, "NIfTI-1 header must be 348 bytes");

}  // namespace lucent::io
