// The translation unit that builds the precompiled headers of cmake/KirchhoffPrecompiled.cmake
// (the headers themselves come from target_precompile_headers; no code of its own).
