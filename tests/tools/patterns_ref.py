# Independent reimplementation of the input patterns specification, used once to
# derive the constants of tests/test_patterns.c and tests/test_gen.sh (not run by ctest).
import struct, sys, hashlib
M=(1<<48)-1
class R:
    def __init__(s,seed): s.x=seed
    def n31(s):
        s.x=(0x5DEECE66D*s.x+0xB)&M; return s.x>>17
def fill(r,m):
    out=bytearray()
    for g in range(m//4): out+= (r.n31()).to_bytes(4,'little')
    t=m%4
    if t: out+= r.n31().to_bytes(4,'little')[:t]
    return bytes(out)
def uni(r,lo,hi,compat):
    if compat:
        u=(hi-lo+1)&0xffffffff; scale=0xffffffff//u; past=(u*scale)&0xffffffff
        while True:
            x=r.n31()
            if x<past: return lo+x//scale
    u=hi-lo+1
    if u<=1<<31:
        scale=(1<<31)//u; past=u*scale
        while True:
            x=r.n31()
            if x<past: return lo+x//scale
    scale=(1<<62)//u; past=u*scale
    while True:
        x=r.n31()*(1<<31)+r.n31()
        if x<past: return lo+x//scale
def width(s): return 1 if s==1 else 2 if s in (2,3) else 8 if s==8 else 4
def put(s,v,compat):
    if compat and s not in (1,2,4,8): return bytes([v&0xff])*s
    w=width(s)
    return (v % (1<<(8*w))).to_bytes(w,'little')+bytes(s-w)
def k_of(n): return int(float(n)*0.2)
def gen(pat,n,s,seed,compat):
    r=R(seed)
    if pat=='sorted': return b''.join(put(s,i,compat) for i in range(n))
    if pat=='reversed': return b''.join(put(s,n-1-i,compat) for i in range(n))
    if pat=='bitonic': return b''.join(put(s,i if i<n//2 else n-1-i,compat) for i in range(n))
    if pat=='allequal': return bytes(n*s)
    if pat=='random': return fill(r,n*s)
    if pat=='mostlysorted':
        a=bytearray(gen('sorted',n,s,seed,compat))
        for _ in range(k_of(n)):
            p=uni(r,0,n-1,compat); a[p*s:(p+1)*s]=fill(r,s)
        return bytes(a)
    if pat=='repeated':
        a=bytearray(fill(r,n*s)); tmp=fill(r,s)
        for _ in range(k_of(n)):
            p=uni(r,0,n-1,compat); a[p*s:(p+1)*s]=tmp
        return bytes(a)
    raise SystemExit('bad pattern')
if __name__=='__main__':
    pat,n,s,seed,compat=sys.argv[1],int(sys.argv[2]),int(sys.argv[3]),int(sys.argv[4],0),sys.argv[5]=='compat'
    sys.stdout.buffer.write(gen(pat,n,s,seed,compat))
