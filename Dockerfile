# ktuned on a CUDA 13 development image: NVRTC and the headers come with the image; the driver
# comes from the host at run time (docker run --gpus all). Without a GPU ktuned answers from its model.
FROM nvidia/cuda:13.0.0-devel-ubuntu24.04

WORKDIR /src/ktune
COPY scripts/install-deps scripts/install-deps
RUN ./scripts/install-deps && rm -rf /var/lib/apt/lists/*
COPY . .
RUN rm -rf build && KTUNE_BUILD_TYPE=Release ./scripts/build -DKTUNE_BUILD_TESTS=OFF -DKTUNE_BUILD_BENCH=OFF \
 && install -d /opt/ktune /var/lib/ktune /data \
 && cp build/bin/ktuned build/bin/ktune build/bin/ktune-measure-worker /opt/ktune/

EXPOSE 8077
VOLUME ["/var/lib/ktune", "/data"]
ENTRYPOINT ["/opt/ktune/ktuned", "--bind", "0.0.0.0", "--port", "8077", "--db", "/var/lib/ktune/ktune.db", "--data-dir", "/data"]
