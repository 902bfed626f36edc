import { createElementObject, createPathComponent, extendContext } from '@react-leaflet/core';
import L from 'leaflet';
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import type { ReactNode } from 'react';

type Props = L.MarkerClusterGroupOptions & { children?: ReactNode };

/** leaflet.markercluster as a react-leaflet layer: markers inside it are clustered. */
export const MarkerClusterGroup = createPathComponent<L.MarkerClusterGroup, Props>(
  ({ children: _children, ...options }, context) => {
    const group = L.markerClusterGroup(options);
    return createElementObject(group, extendContext(context, { layerContainer: group }));
  },
);
