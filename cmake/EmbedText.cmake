# Embeds text files (CUDA templates) into the binary as std::string_view constants, so that
# ktuned needs no source tree at run time. Each file NAME.cu becomes `kNAME_cu` in the
# namespace given, declared in the generated header OUT_HEADER.
function(ktune_embed_text target namespace out_name)
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/embedded)
  set(header ${out_dir}/${out_name}.h)
  set(source ${out_dir}/${out_name}.cpp)
  set(files ${ARGN})
  # Passed as one argument: '|' instead of ';' so the list survives the command line.
  string(REPLACE ";" "|" files_arg "${files}")
  add_custom_command(
    OUTPUT ${header} ${source}
    COMMAND ${CMAKE_COMMAND} -DNAMESPACE=${namespace} -DHEADER=${header} -DSOURCE=${source}
            -DNAME=${out_name} "-DFILES=${files_arg}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedTextRun.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/EmbedTextRun.cmake
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    COMMENT "Embedding ${out_name}"
    VERBATIM)
  target_sources(${target} PRIVATE ${source})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${out_dir}>)
endfunction()
