"""python3-gsd side of the containerfs GSD interop tests.

  dump FILE            print the header facts and one line per chunk (name as UTF-8 hex) (read through gsd.fl, the C library)
  write FILE MODE SPEC append frames from a JSON spec: {frames: [[[namehex, type, M, datahex]]]} (MODE wb creates, rb+ / ab append)
  check FILE EXPECT    verify the frames listed in a JSON file of {frame: {namehex: sha256}}
Commands may be chained with '--' (one interpreter start for all).
"""
import hashlib
import json
import sys

import gsd.fl
import numpy

TYPE_IDS = {'uint8': 1, 'uint16': 2, 'uint32': 3, 'uint64': 4, 'int8': 5, 'int16': 6,
            'int32': 7, 'int64': 8, 'float32': 9, 'float64': 10}
DTYPES = {'uint8': numpy.uint8, 'uint16': numpy.uint16, 'uint32': numpy.uint32,
          'uint64': numpy.uint64, 'int8': numpy.int8, 'int16': numpy.int16,
          'int32': numpy.int32, 'int64': numpy.int64, 'float': numpy.float32,
          'double': numpy.float64}


def dump(path):
    with gsd.fl.open(path, 'rb') as f:
        names = f.find_matching_chunk_names('')
        chunks = []
        for frame in range(f.nframes):
            for name in names:
                if not f.chunk_exists(frame, name):
                    continue
                a = f.read_chunk(frame, name)
                m = a.shape[1] if a.ndim == 2 else 1
                data = a.tobytes()
                chunks.append('chunk %d %s %d %d %d %s' % (frame, name.encode('utf-8').hex(),
                              TYPE_IDS[a.dtype.name], a.shape[0], m, hashlib.sha256(data).hexdigest()))
        print('nframes %d' % f.nframes)
        print('version %d.%d' % tuple(f.gsd_version))
        print('application ' + f.application)
        print('schema ' + f.schema)
        print('schema_version %d.%d' % tuple(f.schema_version))
        for c in chunks:
            print(c)


def write(path, mode, spec_path):
    with open(spec_path) as s:
        spec = json.load(s)
    kwargs = {}
    if mode == 'wb':
        kwargs = dict(application=spec['application'], schema=spec['schema'],
                      schema_version=spec['schema_version'])
    with gsd.fl.open(path, mode, **kwargs) as f:
        for frame in spec['frames']:
            for namehex, type_name, m, hexdata in frame:
                name = bytes.fromhex(namehex).decode('utf-8')
                a = numpy.frombuffer(bytes.fromhex(hexdata), dtype=DTYPES[type_name])
                if m > 1:
                    a = a.reshape(-1, m)
                f.write_chunk(name, a)
            f.end_frame()


def check(path, expect_path):
    with open(expect_path) as s:
        expect = json.load(s)
    with gsd.fl.open(path, 'rb') as f:
        for frame, chunks in expect.items():
            for namehex, digest in chunks.items():
                name = bytes.fromhex(namehex).decode('utf-8')
                got = hashlib.sha256(f.read_chunk(int(frame), name).tobytes()).hexdigest()
                if got != digest:
                    raise SystemExit('%s frame %s chunk %s: sha256 %s, expected %s' % (path, frame, name, got, digest))
        print(f.nframes)


def run(args):
    cmd = args[0]
    if cmd == 'dump':
        dump(args[1])
    elif cmd == 'write':
        write(args[1], args[2], args[3])
    elif cmd == 'check':
        check(args[1], args[2])
    else:
        raise SystemExit('unknown command ' + cmd)


if __name__ == '__main__':
    # several commands separated by '--' share one interpreter start; each output ends with '==END=='
    command = []
    for arg in sys.argv[1:] + ['--']:
        if arg == '--':
            if command:
                run(command)
                print('==END==', flush=True)
            command = []
        else:
            command.append(arg)
